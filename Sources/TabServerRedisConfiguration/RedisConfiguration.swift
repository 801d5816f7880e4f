// SPDX-License-Identifier: Apache-2.0
/// Where a `RedisClient` connects and how long it waits.
///
/// ```swift
/// var configuration = try RedisConfiguration(url: "redis://10.0.0.5:6379/2")
/// configuration.commandTimeout = .milliseconds(250)
/// let client = RedisClient(configuration: configuration)
/// ```
public struct RedisConfiguration: Sendable, Hashable {
    /// Host name or IP address. Prefer an address: a name is resolved on every connect,
    /// and only its first address is tried.
    public var host: String
    /// TCP port (6379 unless the URL says otherwise).
    public var port: Int
    /// The logical database, chosen with `SELECT` on each new connection.
    public var database: Int
    /// Longest wait for a TCP connection.
    public var connectTimeout: Duration
    /// Longest wait for each command's reply (also bounds each write).
    public var commandTimeout: Duration
    /// Idle connections kept open for reuse; more are opened when more threads call at
    /// once, and closed again when they come back to a full pool.
    public var maxIdleConnections: Int
    /// The first pause after a failure, doubled on each further failure.
    public var initialBackoff: Duration
    /// The longest pause between attempts while the server is unreachable.
    public var maxBackoff: Duration

    /// A configuration for `host:port`, database `database`, with the default timeouts:
    /// 500 ms to connect, 500 ms per command, backoff from 50 ms doubling to 2 s.
    public init(host: String, port: Int = 6379, database: Int = 0) {
        self.host = host
        self.port = port
        self.database = database
        connectTimeout = .milliseconds(500)
        commandTimeout = .milliseconds(500)
        maxIdleConnections = 8
        initialBackoff = .milliseconds(50)
        maxBackoff = .seconds(2)
    }

    /// "host:port", as error messages name the server (IPv6 addresses in brackets).
    public var endpoint: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
