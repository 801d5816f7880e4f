import Dispatch
import HTTPServer
import Mustache
import Sessions
import TabBar
import Web

#if canImport(Glibc)
    import Glibc
#endif

/// A configured TabServer: the responder (callable in-process by tests) and what it
/// needs to serve on a socket. Made by `buildApplication(_:)`.
///
/// ```swift
/// let app = try buildApplication(configuration)
/// let server = try app.start()          // bound; server.port is the real port
/// app.reloadTabs()                      // what SIGHUP does
/// ```
public final class Application: Sendable {
    /// The configuration it was built with.
    public let configuration: AppConfiguration
    /// The app as a responder.
    public let responder: TabServerApp
    /// The shared tab controller (replace the model, set hooks).
    public let tabs: TabModelHolder
    /// The session store.
    public let store: any SessionStore
    let log: LogSink

    init(
        configuration: AppConfiguration, responder: TabServerApp, tabs: TabModelHolder, store: any SessionStore,
        log: LogSink
    ) {
        self.configuration = configuration
        self.responder = responder
        self.tabs = tabs
        self.store = store
        self.log = log
    }

    /// Binds and starts serving; expired sessions are swept every `sweepInterval` seconds.
    public func start(accessLog: LogSink? = nil, sweepInterval: Int = 600) throws(StartupError) -> HTTPServer {
        scheduleSweep(every: sweepInterval)
        do {
            return try HTTPServer(
                configuration: configuration.http, responder: responder,
                accessLog: configuration.accessLog ? (accessLog ?? .standardOutput) : nil, errorLog: log)
        } catch {
            throw StartupError(error.description)
        }
    }

    /// Removes expired sessions now and then, off the engine's threads. The chain ends
    /// when the application is gone.
    private func scheduleSweep(every seconds: Int) {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + .seconds(seconds)) { [weak self] in
            guard let self else { return }
            do {
                let removed = try self.store.sweep(now: wallClockSeconds())
                if removed > 0 { self.log.write("tabserver: swept \(removed) expired session(s)") }
            } catch {
                self.log.write("tabserver: session sweep failed: \(error)")
            }
            self.scheduleSweep(every: seconds)
        }
    }

    /// Re-reads the tab definition file. An invalid file keeps the current model; the
    /// error is returned (and logged) so the caller can report it.
    @discardableResult
    public func reloadTabs() -> StartupError? {
        do {
            let model = try TabDefinition.load(
                path: configuration.tabsFile, files: responder.files, templateNames: Set(responder.views.library.names))
            tabs.replaceModel(model)
            log.write("tabserver: reloaded \(configuration.tabsFile): \(model.tabs.count) tabs")
            return nil
        } catch {
            log.write("tabserver: reload of \(configuration.tabsFile) refused, keeping the current tabs: \(error)")
            return error
        }
    }

    /// Runs until SIGTERM or SIGINT, reloading the tabs on SIGHUP; then drains and stops.
    /// The signals must already be blocked in every thread (see `blockSignals()`),
    /// before the engine starts its threads, so `sigwait` here receives them.
    public func serve(_ server: HTTPServer) -> Int32 {
        var set = Self.signalSet()
        while true {
            var signal: Int32 = 0
            guard sigwait(&set, &signal) == 0 else { continue }
            if signal == SIGHUP {
                reloadTabs()
                continue
            }
            log.write("tabserver: signal \(signal), draining \(server.inFlightRequests) request(s)")
            let started = monotonicSeconds()
            server.shutdown()
            log.write("tabserver: stopped in \(Int((monotonicSeconds() - started) * 1000)) ms")
            log.flush()
            return 0
        }
    }

    /// Blocks SIGTERM, SIGINT and SIGHUP in the calling thread and every thread it starts
    /// afterwards. Call first thing in `main`.
    public static func blockSignals() {
        var set = signalSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // A client that closes early must not kill the process with SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
    }

    private static func signalSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGHUP)
        return set
    }

    private func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
