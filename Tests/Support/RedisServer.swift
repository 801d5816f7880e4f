// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A real `redis-server` for tests: on a free port on 127.0.0.1, no persistence, its
/// own temporary directory, stopped by pid. It can be stopped and started again on the
/// same port, to test what clients do while Redis is down.
/// It is a `ChildProcess`, so it sees SIGTERM although tests run on threads that block it.
///
/// ```swift
/// let redis = try RedisServer()
/// let store = try RedisSessionStore(url: redis.url)
/// redis.stop()      // calls now fail
/// try redis.start() // and recover
/// ```
public final class RedisServer {
    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    /// The TCP port, the same across restarts.
    public let port: Int
    /// `redis://127.0.0.1:<port>/0`.
    public var url: String { "redis://127.0.0.1:\(port)/0" }
    /// The server's working directory (its log is `redis.log` there).
    public let directory: String
    private let executable: String
    /// More `redis-server` options, e.g. `["--replicaof", "127.0.0.1", "6380"]`.
    private var arguments: [String]
    /// The running server; nil once it has been stopped and reaped.
    private var child: ChildProcess?

    /// Starts a server on a free loopback port, with `arguments` added to its command
    /// line (a replica: `["--replicaof", "127.0.0.1", String(master.port)]`); waits (at
    /// most 10 s) until it answers, and checks that the answer comes from this process
    /// (`INFO server` names its pid).
    public init(arguments: [String] = []) throws {
        guard let executable = Self.findExecutable("redis-server") else {
            throw StartError(description: "redis-server not found on PATH (install it: scripts/setup.sh --test)")
        }
        self.executable = executable
        self.arguments = arguments
        directory = TestFixtures.temporaryDirectory("redis")
        // The free port is found by binding port 0 and closing, so another process may
        // take it first; then try another.
        var lastError: (any Error)?
        for _ in 0..<5 {
            let candidate = Self.freePort()
            do {
                child = try Self.launch(
                    executable: executable, port: candidate, directory: directory, arguments: arguments)
                port = candidate
                return
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)  // no deinit after a failed init
        throw lastError ?? StartError(description: "redis-server did not start")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// The server's process id while it runs (to pause it with SIGSTOP in a test).
    public var processIdentifier: Int32? { child?.processIdentifier }

    /// Whether the server process is running.
    public var isRunning: Bool {
        guard let child else { return false }
        if child.isRunning { return true }
        self.child = nil
        return false
    }

    /// Starts the server again on the same port (nothing if it runs). Its data is gone:
    /// the server keeps nothing on disk. `arguments`, when given, replace those it was
    /// started with (a master killed in a failover comes back as a replica of the new one).
    public func start(arguments: [String]? = nil) throws {
        if isRunning { return }
        if let arguments { self.arguments = arguments }
        child = try Self.launch(executable: executable, port: port, directory: directory, arguments: self.arguments)
    }

    /// Kills the server at once (SIGKILL), as a crash would, and reaps it.
    public func crash() {
        child?.stop(SIGKILL)
        child = nil
    }

    /// Stops the server: SIGTERM, then SIGKILL if it has not exited after 5 s.
    public func stop() {
        child?.stop()
        child = nil
    }

    private static func launch(executable: String, port: Int, directory: String, arguments: [String]) throws
        -> ChildProcess
    {
        let commandLine =
            [
                executable, "--port", String(port), "--bind", "127.0.0.1", "--protected-mode", "yes",
                "--save", "", "--appendonly", "no", "--dir", directory,
                "--logfile", directory + "/redis.log", "--daemonize", "no",
            ] + arguments
        let child = try ChildProcess(commandLine)
        let started = try waitUntil(.seconds(10)) {
            if !child.isRunning {
                let log = (try? String(contentsOfFile: directory + "/redis.log", encoding: .utf8)) ?? ""
                throw StartError(description: "redis-server on port \(port) exited at start:\n\(log.suffix(2_000))")
            }
            // Our server, not another one that took the port first (then ours exits).
            return serverProcessID(port: port) == child.processIdentifier
        }
        if started { return child }
        child.stop(SIGKILL)
        throw StartError(description: "redis-server on port \(port) did not answer within 10 s")
    }

    /// The `process_id` that the server on 127.0.0.1:`port` reports in `INFO server`;
    /// nil if nothing answers within 200 ms per read.
    static func serverProcessID(port: Int) -> pid_t? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var timeout = timeval(tv_sec: 0, tv_usec: 200_000)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return nil }
        let request = Array("INFO server\r\n".utf8)
        guard send(descriptor, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return nil }
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4_096)
        while received.count < 65_536 {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            received += chunk[..<count]
            let text = String(decoding: received, as: UTF8.self)
            guard let start = text.range(of: "process_id:"),
                let end = text[start.upperBound...].firstIndex(where: \.isNewline)
            else { continue }
            return pid_t(text[start.upperBound..<end])
        }
        return nil
    }

    /// A port the kernel considers free on 127.0.0.1 right now.
    public static func freePort() -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(descriptor >= 0, "socket() failed")
        defer { close(descriptor) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        precondition(bound == 0, "bind() to 127.0.0.1:0 failed")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        let folders = path.split(separator: ":").map(String.init) + ["/usr/bin", "/usr/local/bin", "/usr/sbin"]
        return folders.map { $0 + "/" + name }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
