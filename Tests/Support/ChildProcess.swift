// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A program the tests start (nginx, Caddy, redis-server, the `tabserver` binary), started
/// with `posix_spawn` and stopped by its pid.
///
/// Not Foundation's `Process`, for two reasons measured here:
/// - Swift 6.3.1's `Process.run()` reads `/proc/self/fd` with a 256-byte copy of each
///   directory entry and crashes now and then (SIGSEGV in `memcpy`) when the test process
///   holds many descriptors, as the flood tests do (swift-corelibs-foundation PR #5472).
/// - Test code runs on dispatch worker threads, which block nearly every signal, and
///   `Process` passes that mask on: a child would never see SIGTERM. Here the child starts
///   with an empty mask and default handlers.
///
/// The child inherits no descriptor beyond its standard input, output and error.
///
/// ```swift
/// let nginx = try ChildProcess(["/usr/sbin/nginx", "-c", path], standardError: .file(log))
/// nginx.signal(SIGQUIT)
/// nginx.waitForExit(.seconds(5))
/// ```
public final class ChildProcess: Sendable {
    /// Where the child's standard output or error goes.
    public enum Output: Sendable {
        /// `/dev/null`.
        case discard
        /// Appended to the file at this path (created if absent).
        case file(String)
        /// A pipe this process reads with `readOutput(within:)`.
        case pipe
    }

    /// How a child ended.
    public enum Termination: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signaled(Int32)
    }

    /// The child's process id.
    public let processIdentifier: pid_t
    /// The read end of the `.pipe` output, or -1.
    private let pipeDescriptor: Int32
    /// Set once the child has been reaped.
    private let ended = Mutex<Termination?>(nil)

    /// Starts `arguments[0]` (an absolute path) with the rest as its arguments, in
    /// `environment` (this process's when nil), standard input from `/dev/null`.
    public init(
        _ arguments: [String], environment: [String: String]? = nil, standardOutput: Output = .discard,
        standardError: Output = .discard
    ) throws {
        precondition(!arguments.isEmpty, "a program to run")
        var pipeEnds: [Int32] = [-1, -1]
        if case .pipe = standardOutput, case .pipe = standardError {
            preconditionFailure("one of standard output and error may be a pipe")
        }
        let wantsPipe = [standardOutput, standardError].contains { if case .pipe = $0 { true } else { false } }
        if wantsPipe {
            // No O_CLOEXEC needed: every child here closes what it does not need (below).
            guard pipe(&pipeEnds) == 0 else {
                throw TestSupportError("pipe: \(String(cString: strerror(errno)))")
            }
        }
        defer { if pipeEnds[1] >= 0 { close(pipeEnds[1]) } }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var allSignals = sigset_t()
        sigfillset(&allSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        for (descriptor, output) in [(Int32(1), standardOutput), (Int32(2), standardError)] {
            switch output {
            case .discard: posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", O_WRONLY, 0)
            case .file(let path):
                posix_spawn_file_actions_addopen(&actions, descriptor, path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
            case .pipe: posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], descriptor)
            }
        }
        // Sockets and files the tests hold open stay out of the child: a socket a child
        // inherits stays open after the test closes it.
        Self.addCloseFrom(&actions, 3)

        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { "\($0.key)=\($0.value)" }
        var envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
        defer { for pointer in envp { free(pointer) } }

        var pid: pid_t = 0
        let result = posix_spawn(&pid, arguments[0], &actions, &attributes, &argv, &envp)
        guard result == 0 else {
            if pipeEnds[0] >= 0 { close(pipeEnds[0]) }
            throw TestSupportError("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        processIdentifier = pid
        pipeDescriptor = pipeEnds[0]
    }

    deinit {
        if pipeDescriptor >= 0 { close(pipeDescriptor) }
    }

    /// How the child ended; nil while it runs. Reaps it when it has ended.
    public var termination: Termination? {
        ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            let result = waitpid(processIdentifier, &status, WNOHANG)
            guard result == processIdentifier else { return nil }
            ended = Self.termination(status)
            return ended
        }
    }

    /// Whether the child is still running.
    public var isRunning: Bool { termination == nil }

    /// Sends `signal` to the child, unless it has already been reaped (its pid could then
    /// belong to another process).
    public func signal(_ signal: Int32) {
        ended.withLock { ended in
            if ended == nil { _ = kill(processIdentifier, signal) }
        }
    }

    /// Waits at most `timeout` for the child to end; returns how it ended, nil if it still
    /// runs.
    @discardableResult
    public func waitForExit(_ timeout: Duration) -> Termination? {
        var result: Termination?
        waitUntil(timeout, every: .milliseconds(5)) {
            result = termination
            return result != nil
        }
        return result
    }

    /// Stops the child: `signal`, then SIGKILL if it has not ended within `grace`; waits
    /// for it and returns how it ended.
    @discardableResult
    public func stop(_ signal: Int32 = SIGTERM, grace: Duration = .seconds(5)) -> Termination {
        if let done = termination { return done }
        self.signal(signal)
        self.signal(SIGCONT)  // a test may have paused it
        if let done = waitForExit(grace) { return done }
        self.signal(SIGKILL)
        return ended.withLock { ended in
            if let ended { return ended }
            var status: Int32 = 0
            while waitpid(processIdentifier, &status, 0) == -1 && errno == EINTR {}
            ended = Self.termination(status)
            return ended!
        }
    }

    /// What the child wrote to its `.pipe` output within `timeout` (returns as soon as
    /// something arrives); empty at the end of the output or if nothing came.
    public func readOutput(within timeout: Duration) -> String {
        guard pipeDescriptor >= 0 else { return "" }
        var poller = pollfd(fd: pipeDescriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(
            timeout.components.seconds * 1_000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        guard poll(&poller, 1, milliseconds) > 0 else { return "" }
        var buffer = [UInt8](repeating: 0, count: 4_096)
        let count = read(pipeDescriptor, &buffer, buffer.count)
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
    }

    /// Everything the child writes to its `.pipe` output until it closes it (at exit).
    public func readAllOutput() -> String {
        var collected = ""
        while true {
            let chunk = readOutput(within: .seconds(30))
            if chunk.isEmpty { return collected }
            collected += chunk
        }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), declared only
    /// under `_GNU_SOURCE`, which Swift's Glibc module does not define: looked up by name.
    private static func addCloseFrom(_ actions: inout posix_spawn_file_actions_t, _ lowest: Int32) {
        typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else {
            preconditionFailure("glibc 2.34 or later is needed (posix_spawn_file_actions_addclosefrom_np)")
        }
        _ = unsafeBitCast(symbol, to: AddCloseFrom.self)(&actions, lowest)
    }

    private static func termination(_ status: Int32) -> Termination {
        // The <sys/wait.h> macros, which Swift does not import.
        let signal = status & 0x7f
        return signal == 0 ? .exited((status >> 8) & 0xff) : .signaled(signal)
    }
}
