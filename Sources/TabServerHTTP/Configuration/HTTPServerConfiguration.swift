// SPDX-License-Identifier: Apache-2.0
/// Every limit of the engine, set explicitly, with defaults fit for a server that faces
/// browsers directly: deadlines for slow clients (like nginx's `client_header_timeout`
/// and Apache's mod_reqtimeout), a connection budget answered with a fast 503 when it
/// is spent, and bounded memory per connection.
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// Address to bind: an IPv4 or IPv6 literal, or "localhost".
    public var host: String
    /// Port to bind; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int
    /// Engine threads, each running its own epoll loop.
    public var threads: Int
    /// Connections held at once; a client past it gets an immediate 503 with
    /// `Retry-After` and is closed, never left waiting in the kernel's backlog.
    ///
    /// Unless set (here or in `init`), it is the default of 10,000, which the server
    /// lowers to fit the hard limit on open files; a limit that was set and cannot fit
    /// stops the server from starting instead.
    public var connectionLimit: Int {
        get { chosenConnectionLimit ?? Self.defaultConnectionLimit }
        set { chosenConnectionLimit = newValue }
    }
    /// Whether `connectionLimit` was set rather than left at its default.
    public var isConnectionLimitChosen: Bool { chosenConnectionLimit != nil }
    /// The connection limit when none is set.
    public static let defaultConnectionLimit = 10_000
    private var chosenConnectionLimit: Int?
    /// Connections one client address may hold (0 = no limit). Leave at 0 behind a
    /// reverse proxy, where every connection comes from the proxy.
    public var perAddressConnectionLimit: Int
    /// How long a kept-alive connection may sit idle between requests before it is closed.
    public var connectionTimeout: Duration
    /// Largest request head (request line and header fields) in bytes: a longer request
    /// line answers 414, more header bytes 431.
    public var memoryPerConnection: Int
    /// Largest request body accepted; a larger one answers 413 as soon as it is known.
    public var maxBodySize: Int
    /// Longest time `shutdown` waits for in-flight requests before closing anyway.
    public var shutdownGracePeriod: Duration
    /// A request head must be complete this long after its first byte arrived;
    /// otherwise 408 and close (a slowloris client trickling header lines).
    public var headerTimeout: Duration
    /// A request body gets this long, plus one second per `bodyMinimumRate` bytes
    /// received; a slower body answers 408 and the connection closes.
    public var bodyTimeout: Duration
    /// The rate (bytes per second) that extends `bodyTimeout` as a body arrives.
    public var bodyMinimumRate: Int
    /// A response the client does not read is abandoned (connection closed) when it is
    /// not sent within this time plus one second per `bodyMinimumRate` bytes.
    public var sendTimeout: Duration
    /// HTTPS on the listener itself (HTTP/1.1 over TLS 1.2 or 1.3); nil serves plain HTTP.
    public var tls: TLSSettings? = nil

    /// The defaults: loopback, port 8080, 2 threads, 10,000 connections (fewer when the
    /// hard limit on open files is lower, unless `connectionLimit` is given), 30 s idle
    /// timeout, 32 KiB per request head, 64 KiB bodies, 8 s grace, 10 s for a head, 20 s
    /// (+1 s per 500 B) for a body, 30 s (+1 s per 500 B) to send a response.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threads: Int = 2, connectionLimit: Int? = nil,
        perAddressConnectionLimit: Int = 0, connectionTimeout: Duration = .seconds(30),
        memoryPerConnection: Int = 32 * 1024,
        maxBodySize: Int = 64 * 1024, shutdownGracePeriod: Duration = .seconds(8),
        headerTimeout: Duration = .seconds(10), bodyTimeout: Duration = .seconds(20), bodyMinimumRate: Int = 500,
        sendTimeout: Duration = .seconds(30)
    ) {
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.bodyMinimumRate = bodyMinimumRate
        self.sendTimeout = sendTimeout
        self.host = host
        self.port = port
        self.threads = threads
        self.chosenConnectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.connectionTimeout = connectionTimeout
        self.memoryPerConnection = memoryPerConnection
        self.maxBodySize = maxBodySize
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
