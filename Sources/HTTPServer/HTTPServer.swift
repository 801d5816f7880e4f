import CMicroHTTPD
import HTTPTypes
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The HTTP/1.1 engine: libmicrohttpd with an epoll thread pool, explicit limits,
/// strict framing, form bodies decoded as they arrive, and a graceful shutdown.
///
/// ```swift
/// let server = try HTTPServer(configuration: .init(port: 0), responder: app)
/// print(server.port)            // the bound port
/// server.shutdown()             // drain, then stop
/// ```
///
/// `@unchecked Sendable` is safe: the daemon pointer and listen socket are set once in
/// `init` and only used again in `shutdown`, which a `Mutex`-guarded state makes run once.
public final class HTTPServer: @unchecked Sendable {
    /// The port the server listens on (the real one when configured with 0).
    public let port: Int
    /// The configuration it was started with.
    public let configuration: HTTPServerConfiguration

    let engine: EngineContext
    private let daemon: OpaquePointer
    private let listenSocket: ListenSocket
    private let state = Mutex<State>(.running)

    private enum State { case running, stopping, stopped }

    /// Binds, starts the engine threads, and begins serving `responder`.
    public init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder,
        accessLog: LogSink? = .standardOutput, errorLog: LogSink = .standardError
    ) throws(HTTPServerError) {
        self.configuration = configuration
        try Self.validate(configuration)
        let socket = try ListenSocket(host: configuration.host, port: configuration.port)
        let engine = EngineContext(
            responder: responder, maxBodySize: configuration.maxBodySize, accessLog: accessLog, errorLog: errorLog)
        // MHD holds the engine context unretained; `self.engine` keeps it alive until
        // `shutdown` (called by deinit at the latest) has stopped the daemon.
        let context = Unmanaged.passUnretained(engine).toOpaque()

        // Function-pointer options travel in the item's integer `value`; they must be C
        // function pointers (thin), not Swift closures (thick, twice the size).
        let completed: MHD_RequestCompletedCallback = engineRequestCompleted
        let logger: MHD_LogCallback = engineLog
        let connections: MHD_NotifyConnectionCallback = engineConnectionNotified
        var options: [MHD_OptionItem] = [
            // First, so that MHD reports even option errors through it.
            Self.option(.EXTERNAL_LOGGER, Int(bitPattern: unsafeBitCast(logger, to: UnsafeRawPointer.self)), context),
            Self.option(.LISTEN_SOCKET, Int(socket.descriptor)),
            Self.option(.THREAD_POOL_SIZE, configuration.threads),
            Self.option(.CONNECTION_LIMIT, configuration.connectionLimit),
            Self.option(.PER_IP_CONNECTION_LIMIT, configuration.perAddressConnectionLimit),
            Self.option(.CONNECTION_TIMEOUT, configuration.connectionTimeout),
            Self.option(.CONNECTION_MEMORY_LIMIT, configuration.memoryPerConnection),
            // 1: a request without Host on HTTP/1.1, or with malformed header lines, is a 400.
            Self.option(.STRICT_FOR_CLIENT, 1),
            Self.option(
                .NOTIFY_COMPLETED, Int(bitPattern: unsafeBitCast(completed, to: UnsafeRawPointer.self)), context),
            Self.option(
                .NOTIFY_CONNECTION, Int(bitPattern: unsafeBitCast(connections, to: UnsafeRawPointer.self)), context),
            Self.option(.END, 0),
        ]
        let flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_ITC.rawValue
        let started = options.withUnsafeMutableBufferPointer { buffer in
            tabserver_mhd_start(flags, 0, engineAccessHandler, context, buffer.baseAddress)
        }
        guard let started else {
            close(socket.descriptor)
            throw HTTPServerError("libmicrohttpd could not start on \(configuration.host):\(socket.port)")
        }
        self.engine = engine
        self.daemon = started
        self.listenSocket = socket
        self.port = socket.port
    }

    deinit { shutdown() }

    /// Requests being processed right now.
    public var inFlightRequests: Int { engine.inFlight.load(ordering: .relaxed) }

    /// Requests finished since start (answered, or abandoned by the client).
    public var completedRequests: Int { engine.completed.load(ordering: .relaxed) }

    /// Whether the server is draining (answers carry `Connection: close`).
    public var isDraining: Bool { engine.draining.load(ordering: .relaxed) }

    /// Stops accepting connections, lets in-flight requests finish (answering them with
    /// `Connection: close`) for up to the grace period, then stops the engine. Safe to
    /// call more than once and from any thread; returns when the engine has stopped.
    public func shutdown() {
        let proceed = state.withLock { state -> Bool in
            guard case .running = state else { return false }
            state = .stopping
            return true
        }
        guard proceed else { return }
        engine.draining.store(true, ordering: .relaxed)
        // Quiescing removes the listen socket from the event loops: no new connections.
        _ = MHD_quiesce_daemon(daemon)
        // The kernel would still complete handshakes into the backlog until the socket is
        // closed, and those clients would be reset later. Shutting the listening socket
        // down (Linux) refuses them now, so a proxy retries another instance at once; the
        // descriptor itself stays open until MHD has stopped, as MHD requires.
        Glibc.shutdown(listenSocket.descriptor, Int32(SHUT_RDWR))
        let deadline = monotonicNanos() + UInt64(configuration.shutdownGracePeriod * 1e9)
        while engine.inFlight.load(ordering: .relaxed) > 0 && monotonicNanos() < deadline {
            usleep(5_000)
        }
        MHD_stop_daemon(daemon)
        close(listenSocket.descriptor)
        engine.accessLog?.flush()
        engine.errorLog.flush()
        state.withLock { $0 = .stopped }
    }

    private static func option(_ option: MHD_OPTION, _ value: Int, _ pointer: UnsafeMutableRawPointer? = nil)
        -> MHD_OptionItem
    {
        MHD_OptionItem(option: option, value: value, ptr_value: pointer)
    }

    private static func validate(_ configuration: HTTPServerConfiguration) throws(HTTPServerError) {
        func require(_ condition: Bool, _ message: String) throws(HTTPServerError) {
            if !condition { throw HTTPServerError(message) }
        }
        try require((1...64).contains(configuration.threads), "threads must be 1–64, got \(configuration.threads)")
        try require(configuration.connectionLimit >= 1, "connection limit must be at least 1")
        try require(configuration.perAddressConnectionLimit >= 0, "per-address connection limit must be 0 or more")
        try require(configuration.connectionTimeout >= 1, "connection timeout must be at least 1 second")
        try require(configuration.memoryPerConnection >= 4096, "memory per connection must be at least 4096 bytes")
        try require(configuration.maxBodySize >= 0, "maximum body size must be 0 or more")
        try require(configuration.shutdownGracePeriod >= 0, "shutdown grace period must be 0 or more")
    }
}

/// Nanoseconds on the monotonic clock.
func monotonicNanos() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}
