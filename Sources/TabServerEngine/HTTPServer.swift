// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP/1.1 engine: epoll event loops written for TabServer, one per thread,
/// behind `HTTPResponder`. It parses heads with picohttpparser (strict RFC 9112), bounds
/// every phase of a connection in time and memory, answers past its connection budget
/// with a fast 503, and drains gracefully.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0), responder: app)
/// print(server.port)            // the bound port
/// server.shutdown()             // drain, then stop
/// ```
///
/// Its life is a state machine (`State`): `init` returns it `running`, `shutdown()`
/// drains it and leaves it `stopped`; a second `shutdown()` waits for the first.
///
/// `@unchecked Sendable` is safe: the loops and listen socket are set once in `init`
/// and used again only in `shutdown`, which `Lifecycle` lets only one caller run.
public final class HTTPServer: @unchecked Sendable {
    /// The port the server listens on (the real one when configured with 0).
    public let port: Int
    /// The configuration it runs with: the one given, with a default connection limit
    /// lowered to fit the hard limit on open files.
    public let configuration: HTTPServerConfiguration

    let engine: Engine
    private let loops: [EventLoop]
    private let listenSocket: ListenSocket
    private let lifecycle: Lifecycle
    /// The plain listener answering 308 to HTTPS (`TLSSettings.redirectHTTPPort`).
    private var redirector: HTTPServer?

    /// The port of the plain HTTP listener that redirects to HTTPS; nil when there is none.
    public var redirectPort: Int? { redirector?.port }

    /// Where the server is in its life; `running` once `init` has returned.
    public var state: State { lifecycle.state }

    /// Binds, starts the engine threads, and begins serving `responder`: the server
    /// passes `created` and `bound` and is `running` when this returns. When a step fails
    /// it closes what it opened and throws.
    public convenience init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        accessLog: LogSink? = .standardOutput, errorLog: LogSink = .standardError
    ) throws(HTTPServerError) {
        try self.init(checked: configuration, responder: responder, accessLog: accessLog, errorLog: errorLog)
        guard let port = configuration.tls?.redirectHTTPPort else { return }
        // The redirect listener: plain HTTP, the same limits, one thread, and a responder
        // that answers heads with a 308.
        var plain = configuration
        plain.tls = nil
        plain.port = port
        plain.threads = 1
        do {
            let redirect = HTTPSRedirect(httpsPort: self.port, origin: configuration.tls?.redirectOrigin)
            redirector = try HTTPServer(
                checked: plain, responder: redirect, accessLog: accessLog, errorLog: errorLog)
        } catch {
            shutdown()
            throw HTTPServerError("the HTTP redirect port \(port): \(error.description)")
        }
    }

    private init(
        checked configuration: HTTPServerConfiguration, responder: any HTTPResponder, accessLog: LogSink?,
        errorLog: LogSink
    ) throws(HTTPServerError) {
        let lifecycle = Lifecycle()
        try Self.validate(configuration)
        let configuration = try Self.fitDescriptors(configuration, log: errorLog)
        let tls = try Self.makeTLS(configuration.tls)
        self.configuration = configuration
        let socket = try ListenSocket(host: configuration.host, port: configuration.port)
        lifecycle.advance(from: .created, to: .bound)
        let engine = Engine(
            responder: responder, configuration: configuration, accessLog: accessLog, errorLog: errorLog,
            listenDescriptor: socket.descriptor, lifecycle: lifecycle, tls: tls)
        var loops: [EventLoop] = []
        do {
            for _ in 0..<configuration.threads {
                let loop = try EventLoop(engine: engine)
                try loop.start()
                loops.append(loop)
            }
        } catch {
            lifecycle.advance(from: .bound, to: .stopping)
            for loop in loops {
                loop.wake()
                loop.join()
            }
            close(socket.descriptor)
            lifecycle.advance(from: .stopping, to: .stopped)
            throw error
        }
        engine.loops.withLock { $0 = loops }
        self.engine = engine
        self.loops = loops
        self.listenSocket = socket
        self.port = socket.port
        self.lifecycle = lifecycle
        lifecycle.advance(from: .bound, to: .running)
    }

    deinit { shutdown() }

    /// Stops accepting connections (new ones are refused at once), closes idle ones,
    /// lets requests in progress finish (answered with `Connection: close`) for up to the
    /// grace period, then stops the loops: `running` → `draining` → `stopping` → `stopped`.
    ///
    /// Safe to call more than once and from any thread, and every call returns only when
    /// the server is `stopped` (every loop has exited): a call made while another drains
    /// waits for it, one made after the stop returns at once.
    public func shutdown() {
        switch lifecycle.advance(from: .running, to: .draining) {
        case .running: break  // this call drains
        case .draining, .stopping, .stopped:
            lifecycle.waitUntilStopped()
            return
        case .created, .bound:
            return  // only inside a failed `init`: nothing runs
        }
        redirector?.shutdown()
        // Shutting the listening socket down refuses new connections now (a proxy retries
        // another instance at once) and makes every loop's accept fail, so it stops listening.
        Glibc.shutdown(listenSocket.descriptor, Int32(SHUT_RDWR))
        for loop in loops { loop.wake() }
        let (seconds, attoseconds) = configuration.shutdownGracePeriod.components
        let grace = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        let deadline = monotonicNanos() + grace
        while engine.openConnections.load(ordering: .relaxed) > 0 && monotonicNanos() < deadline {
            usleep(5_000)
        }
        lifecycle.advance(from: .draining, to: .stopping)
        for loop in loops { loop.wake() }
        for loop in loops { loop.join() }
        engine.loops.withLock { $0 = [] }  // the loops and the engine refer to each other
        close(listenSocket.descriptor)
        engine.accessLog?.flush()
        engine.errorLog.flush()
        lifecycle.advance(from: .stopping, to: .stopped)
    }

    /// Whether the listener serves HTTPS.
    public var servesTLS: Bool { engine.tls != nil }

    /// Reads the TLS certificate and key files again (after a renewal): new handshakes
    /// use them, connections open now keep theirs. On an error the current certificate
    /// stays; nothing happens without TLS. Returns the new certificate's end of validity.
    @discardableResult
    public func reloadTLS() throws(HTTPServerError) -> String? {
        guard let tls = engine.tls else { return nil }
        do {
            try tls.reload()
        } catch {
            throw HTTPServerError(error.reason)
        }
        return tls.notAfter
    }

    /// The listener's TLS context from `settings` (nil without TLS); a bad file stops
    /// the start, named in the error.
    private static func makeTLS(_ settings: TLSSettings?) throws(HTTPServerError) -> TLSServerContext? {
        guard let settings else { return nil }
        do {
            return try TLSServerContext(
                certificatePath: settings.certificatePath, keyPath: settings.keyPath,
                minimumVersion: settings.minimumVersion == .tls13 ? .tls13 : .tls12, offersHTTP2: settings.http2)
        } catch {
            throw HTTPServerError(error.reason)
        }
    }

    private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
        func require(_ condition: Bool, _ message: String) throws(HTTPServerError) {
            if !condition { throw HTTPServerError(message) }
        }
        try require((1...64).contains(configuration.threads), "threads must be 1–64, got \(configuration.threads)")
        try require(configuration.connectionLimit >= 1, "connection limit must be at least 1")
        try require(configuration.perAddressConnectionLimit >= 0, "per-address connection limit must be 0 or more")
        try require(configuration.connectionTimeout >= .milliseconds(100), "connection timeout must be at least 0.1 s")
        try require(configuration.headerTimeout >= .milliseconds(100), "header timeout must be at least 0.1 s")
        try require(configuration.bodyTimeout >= .milliseconds(100), "body timeout must be at least 0.1 s")
        try require(configuration.sendTimeout >= .milliseconds(100), "send timeout must be at least 0.1 s")
        try require(configuration.bodyMinimumRate >= 1, "minimum body rate must be at least 1 byte per second")
        try require(configuration.memoryPerConnection >= 1024, "the request head limit must be at least 1024 bytes")
        try require(configuration.maxBodySize >= 0, "maximum body size must be 0 or more")
        try require(configuration.shutdownGracePeriod >= .zero, "shutdown grace period must be 0 or more")
    }

    /// Open files a connection budget needs beyond one per connection: the listening
    /// socket, the loops' epoll and wake-up descriptors, log files, the session store.
    static let reservedDescriptors = 256

    /// The connection limit that fits `hardLimit` open files: `configured` if it fits,
    /// nil when it was chosen and does not, else the most that fits (at least 1).
    static func fittingConnectionLimit(_ configuration: HTTPServerConfiguration, hardLimit: Int) -> Int? {
        if configuration.connectionLimit + reservedDescriptors <= hardLimit { return configuration.connectionLimit }
        if configuration.isConnectionLimitChosen { return nil }
        return max(1, hardLimit - reservedDescriptors)
    }

    /// Raises the soft limit on open files to what the connection budget needs (each
    /// connection is a descriptor). When even the hard limit is short, a default budget is
    /// lowered to fit it (said once in `log`), and a chosen one refuses to start.
    private static func fitDescriptors(_ configuration: HTTPServerConfiguration, log: LogSink)
        throws(HTTPServerError) -> HTTPServerConfiguration
    {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return configuration }
        let hardLimit = Int(clamping: limits.rlim_max)  // RLIM_INFINITY is all ones: Int.max
        let needed = configuration.connectionLimit + reservedDescriptors
        guard let fitting = fittingConnectionLimit(configuration, hardLimit: hardLimit) else {
            throw HTTPServerError(
                "the connection limit \(configuration.connectionLimit) needs \(needed) open files, but the hard limit is \(limits.rlim_max): lower --connection-limit or raise ulimit -n"
            )
        }
        var fitted = configuration
        if fitting != configuration.connectionLimit {
            fitted.connectionLimit = fitting
            log.write(
                "connection limit \(fitting) (the default \(configuration.connectionLimit) needs \(needed) open files, the hard limit is \(hardLimit)); set --connection-limit or raise ulimit -n",
                level: .warn)
        }
        let wanted = rlim_t(fitted.connectionLimit + reservedDescriptors)
        if limits.rlim_cur < wanted {
            limits.rlim_cur = min(wanted, limits.rlim_max)
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits)
        }
        return fitted
    }
}
