// SPDX-License-Identifier: Apache-2.0
import TabServer

#if canImport(Glibc)
    import Glibc
#endif

/// Process lifecycle for a program that serves one `AppServer`: SIGTERM and SIGINT drain
/// and stop it, SIGHUP calls a reload action. The library itself installs no handlers;
/// an executable that wants this behaviour opts in.
///
/// ```swift
/// ProcessSignals.block()                       // first thing in main, before any thread
/// let server = try AppServer(app)
/// exit(ProcessSignals.serve(server, onReload: { app.reloadTabs() }))
/// ```
public enum ProcessSignals {
    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread and every thread it starts
    /// afterwards, so only `serve` receives them; ignores SIGPIPE (a client that closes
    /// early must not end the process). Call before anything starts a thread.
    public static func block() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits for signals: SIGHUP runs `onReload`; SIGTERM or SIGINT drains and stops the
    /// server, then returns the exit status (0).
    public static func serve(_ server: AppServer, onReload: () -> Void = {}) -> Int32 {
        let log = server.application.log
        var set = signalSet()
        while true {
            var received: Int32 = 0
            guard sigwait(&set, &received) == 0 else { continue }
            if received == SIGHUP {
                onReload()
                continue
            }
            log.write("tabserver: signal \(received), draining \(server.inFlightRequests) request(s)")
            let started = monotonicMilliseconds()
            server.shutdown()
            log.write("tabserver: stopped in \(monotonicMilliseconds() - started) ms")
            log.flush()
            return 0
        }
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGHUP)
        return set
    }

    private static func monotonicMilliseconds() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000
    }
}
