// SPDX-License-Identifier: Apache-2.0
/// Where a `RedisClient` connects and how long it waits: one server, the master that a
/// set of Redis Sentinels names (then the client follows a failover by itself), or the
/// primaries of a Redis Cluster (then each command goes to the primary of its key's slot).
///
/// ```swift
/// var configuration = try RedisConfiguration(url: "redis://10.0.0.5:6379/2")
/// configuration.commandTimeout = .milliseconds(250)
/// let client = RedisClient(configuration: configuration)
///
/// var replicated = try RedisConfiguration(url: "redis-sentinel://10.0.0.11,10.0.0.12,10.0.0.13/sessions")
/// replicated.waitReplicas = 1    // a write counts once a replica has it
///
/// let sharded = try RedisConfiguration(url: "redis-cluster://10.0.0.21:6379,10.0.0.22:6379")
/// ```
public struct RedisConfiguration: Sendable, Hashable {
    /// Host name or IP address. Prefer an address: a name is resolved on every connect,
    /// and only its first address is tried. With `sentinels`, the first sentinel's host
    /// (connections go to the master the sentinels name, never here).
    public var host: String
    /// TCP port (6379 unless the URL says otherwise); with `sentinels`, the first
    /// sentinel's port.
    public var port: Int
    /// When set, the server is the master these sentinels name: asked on the first
    /// connection and again after every failure, and checked with `ROLE`.
    public var sentinels: RedisSentinels?
    /// When set, the server is a Redis Cluster: these nodes are asked for its slot map,
    /// and each command goes to the primary that serves its key's slot.
    public var cluster: RedisClusterSeeds?
    /// Replicas that must have each write before it counts as done (Redis `WAIT`), 0 for
    /// none. A write that fewer replicas acknowledge within `waitTimeout` fails with
    /// `.notReplicated`, although the master has it: it may or may not survive a failover.
    public var waitReplicas: Int
    /// Longest wait for the replicas' acknowledgement (`WAIT`'s timeout); capped at half
    /// the command timeout, so the reply always comes before the socket gives up.
    public var waitTimeout: Duration
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
        sentinels = nil
        cluster = nil
        waitReplicas = 0
        waitTimeout = .milliseconds(250)
    }

    /// A configuration for the master `sentinels` name, database `database`, with the
    /// default timeouts.
    public init(sentinels: RedisSentinels, database: Int = 0) {
        let first = sentinels.addresses.first ?? RedisSentinels.Address(host: "127.0.0.1")
        self.init(host: first.host, port: first.port, database: database)
        self.sentinels = sentinels
    }

    /// A configuration for the Redis Cluster whose nodes include `cluster.nodes`, with
    /// the default timeouts (a cluster has database 0 only).
    public init(cluster: RedisClusterSeeds) {
        let first = cluster.nodes.first ?? RedisClusterSeeds.Address(host: "127.0.0.1", port: 6379)
        self.init(host: first.host, port: first.port)
        self.cluster = cluster
    }

    /// The same settings for the server at `host:port`, without sentinels or cluster:
    /// where the client's connections go once the sentinels have named the master, or
    /// one cluster node.
    public func server(host: String, port: Int) -> RedisConfiguration {
        var server = self
        server.host = host
        server.port = port
        server.sentinels = nil
        server.cluster = nil
        return server
    }

    /// The `WAIT` timeout in milliseconds as sent: `waitTimeout`, at most half the
    /// command timeout, at least 1 (0 would wait for ever).
    public var waitMilliseconds: Int {
        func milliseconds(_ duration: Duration) -> Int64 {
            let (seconds, attoseconds) = duration.components
            return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
        }
        return Int(max(1, min(milliseconds(waitTimeout), milliseconds(commandTimeout) / 2)))
    }

    /// The URL this configuration stands for: `redis://host:port/db`,
    /// `redis-sentinel://host:port,host:port/master/db` or
    /// `redis-cluster://host:port,host:port`.
    public var url: String {
        if let cluster { return "redis-cluster://" + cluster.nodes.map(\.endpoint).joined(separator: ",") }
        guard let sentinels else { return "redis://\(endpoint)/\(database)" }
        let hosts = sentinels.addresses.map(\.endpoint).joined(separator: ",")
        return "redis-sentinel://\(hosts)/\(sentinels.masterName)/\(database)"
    }

    /// "host:port", as error messages name the server (IPv6 addresses in brackets).
    public var endpoint: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
