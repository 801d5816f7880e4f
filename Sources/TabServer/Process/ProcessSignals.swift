// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The write end of the pipe the signal handler writes to (-1 before `install`).
/// `nonisolated(unsafe)` is safe: it is written once, by `install`, before the handler that
/// reads it is installed, and only read after (by the handler, on whichever thread the
/// kernel picks).
nonisolated(unsafe) private var signalPipe: (read: Int32, write: Int32) = (-1, -1)

/// Process lifecycle for a program that serves: SIGTERM and SIGINT drain and stop it,
/// SIGHUP reloads. The library installs no handlers by itself; `Application.run()` (in
/// `TabServer`) opts in.
///
/// The handler only writes the signal's number to a pipe (the one thing a signal handler
/// may safely do), and `serve` reads the pipe on a thread of its own: so whichever thread
/// the kernel hands a signal to, even one started before `install`, nothing else happens
/// in a handler.
///
/// ```swift
/// ProcessSignals.install()
/// ProcessSignals.serve(log: log, onReload: { app.reloadTabs() }, stop: { server.shutdown() })
/// ```
public enum ProcessSignals {
    /// Installs the handlers for SIGTERM, SIGINT and SIGHUP (once) and ignores SIGPIPE (a
    /// client that closes early must not end the process).
    public static func install() {
        guard signalPipe.write < 0 else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFD, FD_CLOEXEC)
        _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
        signalPipe = (ends[0], ends[1])
        for number in [SIGTERM, SIGINT, SIGHUP] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(signalPipe.write, &byte, 1)
            }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(number, &action, nil)
        }
        signal(SIGPIPE, SIG_IGN)
    }

    /// Asks `serve` to stop as SIGTERM would (what cancelling `Application.run()` does);
    /// safe from any thread, and before `serve` has started (it stops at once then).
    public static func requestStop() {
        install()
        var byte = stopRequest
        _ = write(signalPipe.write, &byte, 1)
    }

    /// What `requestStop` writes to the pipe: no signal has this number.
    private static let stopRequest: UInt8 = 0

    /// Waits for signals on the calling thread (`install` first): SIGHUP runs `onReload`;
    /// SIGTERM, SIGINT or `requestStop()` runs `stop` (which drains and stops the server)
    /// and returns.
    public static func serve(
        log: LogSink, inFlight: () -> Int = { 0 }, onReload: () -> Void = {}, stop: () -> Void
    ) {
        install()
        while true {
            var byte: UInt8 = 0
            let count = read(signalPipe.read, &byte, 1)
            if count < 0 && errno == EINTR { continue }
            guard count == 1 else { return }
            let received = Int32(byte)
            if received == SIGHUP {
                onReload()
                continue
            }
            let reason = byte == stopRequest ? "stop requested" : "signal \(received)"
            log.write("\(reason), draining \(inFlight()) request(s)")
            let started = monotonicMilliseconds()
            stop()
            log.write("stopped in \(monotonicMilliseconds() - started) ms")
            log.flush()
            return
        }
    }

    private static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
