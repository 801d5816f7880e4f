/// Every limit of the engine, set explicitly: libmicrohttpd's defaults are unsafe for a
/// public server (no connection timeout at all, for one).
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// Address to bind: an IPv4 or IPv6 literal, or "localhost".
    public var host: String
    /// Port to bind; 0 picks a free one (read it back from `HTTPServer.port`).
    public var port: Int
    /// Engine threads, each running its own epoll loop.
    public var threads: Int
    /// Connections served at once; further clients are refused, not queued.
    public var connectionLimit: Int
    /// Connections one client address may hold (0 = no limit). Leave at 0 behind a
    /// reverse proxy, where every connection comes from the proxy.
    public var perAddressConnectionLimit: Int
    /// How long a connection may sit idle before it is closed (whole seconds; a
    /// fraction rounds up, since the engine counts seconds and 0 would mean never).
    public var connectionTimeout: Duration
    /// Bytes of memory each connection may use for the request head and buffers;
    /// headers beyond it answer 431, a longer URL 414.
    public var memoryPerConnection: Int
    /// Largest request body accepted; a larger one answers 413 as soon as it is known.
    public var maxBodySize: Int
    /// Longest time `shutdown` waits for in-flight requests before closing anyway.
    public var shutdownGracePeriod: Duration

    /// The defaults: loopback, port 8080, 2 threads, 1,000 connections, 30 s timeout,
    /// 32 KiB per connection, 64 KiB bodies, 8 s grace.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, threads: Int = 2, connectionLimit: Int = 1000,
        perAddressConnectionLimit: Int = 0, connectionTimeout: Duration = .seconds(30),
        memoryPerConnection: Int = 32 * 1024,
        maxBodySize: Int = 64 * 1024, shutdownGracePeriod: Duration = .seconds(8)
    ) {
        self.host = host
        self.port = port
        self.threads = threads
        self.connectionLimit = connectionLimit
        self.perAddressConnectionLimit = perAddressConnectionLimit
        self.connectionTimeout = connectionTimeout
        self.memoryPerConnection = memoryPerConnection
        self.maxBodySize = maxBodySize
        self.shutdownGracePeriod = shutdownGracePeriod
    }
}
