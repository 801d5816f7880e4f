// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A real Redis Sentinel for tests (Debian's `redis-sentinel`): on a free loopback
/// port, its own temporary directory and configuration file (which Sentinel rewrites as
/// it learns), watching one master on 127.0.0.1, stopped by pid.
///
/// ```swift
/// let master = try RedisServer()
/// let sentinel = try RedisSentinelServer(masterName: "sessions", masterPort: master.port)
/// // redis-sentinel://127.0.0.1:\(sentinel.port)/sessions
/// ```
public final class RedisSentinelServer {
    /// The TCP port.
    public let port: Int
    /// The sentinel's working directory (its log is `sentinel.log` there).
    public let directory: String
    /// The running sentinel; nil once it has been stopped.
    private var child: ChildProcess?

    /// Starts a sentinel that monitors the master on 127.0.0.1:`masterPort` as
    /// `masterName`, agreeing with `quorum` sentinels that it is down after `downAfter`
    /// without an answer; waits (at most 10 s) until it answers, as itself.
    public init(
        masterName: String, masterPort: Int, quorum: Int = 2, downAfter: Duration = .milliseconds(500),
        failoverTimeout: Duration = .seconds(2)
    ) throws {
        guard let executable = RedisServer.findExecutable("redis-sentinel") else {
            throw RedisServer.StartError(
                description: "redis-sentinel not found on PATH (install it: scripts/setup.sh --test)")
        }
        directory = TestFixtures.temporaryDirectory("sentinel")
        var lastError: (any Error)?
        for _ in 0..<5 {
            let candidate = RedisServer.freePort()
            let configuration = """
                port \(candidate)
                bind 127.0.0.1
                daemonize no
                dir \(directory)
                logfile \(directory)/sentinel.log
                sentinel monitor \(masterName) 127.0.0.1 \(masterPort) \(quorum)
                sentinel down-after-milliseconds \(masterName) \(Self.milliseconds(downAfter))
                sentinel failover-timeout \(masterName) \(Self.milliseconds(failoverTimeout))
                sentinel parallel-syncs \(masterName) 1

                """
            let file = directory + "/sentinel.conf"
            do {
                try configuration.write(toFile: file, atomically: true, encoding: .utf8)
                child = try Self.launch(executable: executable, file: file, port: candidate, directory: directory)
                port = candidate
                return
            } catch {
                lastError = error
            }
        }
        try? FileManager.default.removeItem(atPath: directory)  // no deinit after a failed init
        throw lastError ?? RedisServer.StartError(description: "redis-sentinel did not start")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Stops the sentinel: SIGTERM, then SIGKILL if it has not exited after 5 s.
    public func stop() {
        child?.stop()
        child = nil
    }

    private static func launch(executable: String, file: String, port: Int, directory: String) throws
        -> ChildProcess
    {
        let child = try ChildProcess([executable, file])
        let started = try waitUntil(.seconds(10)) {
            if !child.isRunning {
                let log = (try? String(contentsOfFile: directory + "/sentinel.log", encoding: .utf8)) ?? ""
                throw RedisServer.StartError(
                    description: "redis-sentinel on port \(port) exited at start:\n\(log.suffix(2_000))")
            }
            return RedisServer.serverProcessID(port: port) == child.processIdentifier
        }
        if started { return child }
        child.stop(SIGKILL)
        throw RedisServer.StartError(description: "redis-sentinel on port \(port) did not answer within 10 s")
    }

    private static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
