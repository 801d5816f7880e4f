// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerEngine
import TabServerHTTP
import TabServerThreads

/// An `Application` served on a socket by the HTTP engine. The embedding program owns
/// the process: it decides when to stop (a signal, a test, a supervisor) and calls
/// `shutdown()`; nothing here installs signal handlers.
///
/// ```swift
/// let app = Application(configuration: configuration)
/// app.tab("notes") { notes in notes.page { _, _ in TabPage(title: "Notes", context: [:]) } }
/// try app.build()
/// let server = try AppServer(app)        // bound and serving; server.port is the real port
/// server.shutdown()                      // drains, then returns once stopped
/// ```
///
/// An app's `main` usually runs the whole lifecycle with `try await app.run()` instead.
public final class AppServer: Sendable {
    /// The application being served.
    public let application: Application
    /// The port the server listens on (the real one when configured with 0).
    public var port: Int { engine.port }

    private let engine: HTTPServer
    private let liveEventsClosed = Mutex<Bool>(false)
    /// Development mode's watcher of the app's files (nil outside it).
    private let watcher: FileWatcher?
    /// The periodic sweep of expired sessions, cancelled by `shutdown()`.
    private let sweep: RepeatingTimer

    /// Binds, starts the engine threads, begins serving, and sweeps expired sessions
    /// every `sweepInterval` seconds. The access log goes to `accessLog` (standard output
    /// by default) when the configuration turns it on.
    public init(_ application: Application, accessLog: LogSink? = nil, sweepInterval: Int = 600)
        throws(StartupError)
    {
        self.application = application
        try application.build()
        let configuration = application.configuration
        var http = configuration.http
        if let origin = configuration.publicOrigin, origin.isHTTPS {
            // The redirect points where visitors reach the app, not at the listener's port.
            http.tls?.redirectOrigin = RedirectOrigin(host: origin.host, port: origin.port)
        }
        let watcher = Self.watchFiles(of: application)
        self.watcher = watcher
        let responder: any HTTPResponder =
            configuration.developmentMode ? DevelopmentResponder(application) : application.responder
        do {
            engine = try HTTPServer(
                configuration: http, responder: responder,
                accessLog: configuration.accessLog ? (accessLog ?? Self.standardOutput(configuration.logFormat)) : nil,
                errorLog: application.log)
        } catch {
            watcher?.stop()
            throw StartupError(.listener, error.description, underlying: error)
        }
        application.metrics?.attach(engine: engine)
        sweep = RepeatingTimer(every: .seconds(max(sweepInterval, 1))) { [application] in
            Task { await application.sweepExpiredSessions() }
            return true
        }
    }

    /// Development mode's watcher, which builds the app again on every save (nil outside
    /// development mode, or when the files cannot be watched: said in the log).
    private static func watchFiles(of application: Application) -> FileWatcher? {
        guard application.configuration.developmentMode else { return nil }
        let log = application.log
        log.write(
            "DEVELOPMENT MODE is on (--dev): the templates, static files, locales and tab file are watched and reloaded on every save, and errors show in the browser. Never run it in production.",
            level: .warn)
        do {
            return try FileWatcher(paths: application.developmentPaths) { [weak application] changed in
                application?.developmentReload(changed: changed)
            }
        } catch {
            log.write("development mode: the files are not watched: \(error)", level: .error)
            return nil
        }
    }

    /// Standard output in the configured format (the shared text sink when text).
    private static func standardOutput(_ format: LogFormat) -> LogSink {
        format == .text ? .standardOutput : LogSink(descriptor: 1, format: format)
    }

    /// Whether it serves HTTPS itself (`--tls-certificate`, `--tls-key`).
    public var servesTLS: Bool { engine.servesTLS }

    /// The plain HTTP port that answers 308 to HTTPS (`--redirect-http-port`); nil without one.
    public var redirectPort: Int? { engine.redirectPort }

    /// Reads the TLS certificate and key again (SIGHUP after a renewal): new handshakes
    /// use them, open connections keep theirs; on an error the current certificate stays.
    /// Returns the new certificate's end of validity; nil without TLS.
    @discardableResult
    public func reloadTLS() throws(StartupError) -> String? {
        do {
            return try engine.reloadTLS()
        } catch {
            throw StartupError(.listener, error.description, underlying: error)
        }
    }

    /// Requests being processed right now.
    public var inFlightRequests: Int { engine.inFlightRequests }

    /// Requests finished since start (answered, or abandoned by the client).
    public var completedRequests: Int { engine.completedRequests }

    /// Whether the server is draining (refusing new connections, closing kept-alive ones).
    public var isDraining: Bool { engine.isDraining }

    /// Stops the periodic sweep, ends the live-event streams, stops accepting
    /// connections, lets in-flight requests finish for up to the configured grace period,
    /// stops the engine, then gives the observers up to 5 s to hear of every change
    /// committed. Safe to call more than once and from any thread; every call returns only
    /// when the engine has stopped (a second call waits for the first:
    /// `HTTPServer.shutdown()`) and the hooks are done or out of time.
    public func shutdown() {
        watcher?.stop()
        sweep.cancel()
        let first = liveEventsClosed.withLock { closed -> Bool in
            defer { closed = true }
            return !closed
        }
        if first { application.responder.events.closeAll() }
        engine.shutdown()
        // The observers hear of every change committed before the stop.
        _ = application.responder.finishHooks(within: .seconds(5))
    }
}

extension Application {
    /// Starts serving this application on its configured host and port.
    public func start(accessLog: LogSink? = nil, sweepInterval: Int = 600) throws(StartupError) -> AppServer {
        try AppServer(self, accessLog: accessLog, sweepInterval: sweepInterval)
    }
}
