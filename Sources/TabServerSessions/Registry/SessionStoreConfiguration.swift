// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerRedisConfiguration

/// Where sessions live, parsed once from `--sessions` (with `--memory-sessions`,
/// `--sqlite-max-sessions`, `--redis-prefix` and `--redis-wait-replicas`);
/// the app opens the store it names through its `SessionStoreRegistry`.
///
/// ```swift
/// configuration.sessions = .memory(capacity: 10_000)
/// configuration.sessions = .sqlite(path: "data/sessions.sqlite")
/// configuration.sessions = .redis(RedisConfiguration(host: "10.0.0.5"), keyPrefix: "shop:session:")
/// configuration.sessions = try SessionStoreConfiguration("redis://10.0.0.5:6379/0")
/// configuration.sessions = try SessionStoreConfiguration("redis-sentinel://10.0.0.11,10.0.0.12,10.0.0.13/sessions")
/// configuration.sessions = try SessionStoreConfiguration("redis-cluster://10.0.0.21:6379,10.0.0.22:6379")
/// ```
public enum SessionStoreConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// In this process, least recently used first out beyond `capacity`: for tests and
    /// benchmarks.
    case memory(capacity: Int = SessionStoreConfiguration.defaultMemoryCapacity)
    /// A SQLite file (created with its folders on first run): durable, one instance; at
    /// most `maxSessions` rows, least recently used first out beyond that.
    case sqlite(path: String, maxSessions: Int = SessionStoreConfiguration.defaultSQLiteMaxSessions)
    /// Shared by several instances through Redis (one server, the master Redis Sentinel
    /// names, or a Redis Cluster); keys are `keyPrefix` + the session id (on a cluster
    /// the id in braces, a hash tag).
    case redis(RedisConfiguration, keyPrefix: String = SessionStoreConfiguration.defaultRedisKeyPrefix)

    /// The default store: SQLite in `data/sessions.sqlite`.
    public static let standard = SessionStoreConfiguration.sqlite(path: "data/sessions.sqlite")
    /// Most rows the SQLite store keeps unless told otherwise (about 1 GB on disk).
    public static let defaultSQLiteMaxSessions = 3_000_000
    /// Most sessions the memory store keeps unless told otherwise.
    public static let defaultMemoryCapacity = 100_000
    /// The Redis key prefix unless told otherwise.
    public static let defaultRedisKeyPrefix = "tabserver:session:"

    /// Parses `memory`, `sqlite:PATH`, `redis://HOST[:PORT][/DB]` or
    /// `redis-sentinel://HOST[:PORT][,HOST[:PORT]…]/MASTER[/DB]` or
    /// `redis-cluster://HOST[:PORT][,HOST[:PORT]…]` (default capacity and key prefix);
    /// anything else is refused, saying what is wrong.
    public init(_ text: String) throws(ConfigurationError) {
        if text == "memory" {
            self = .memory()
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ConfigurationError("'\(text)' has no path (use sqlite:PATH)") }
            self = .sqlite(path: path)
        } else if text.lowercased().hasPrefix("redis") {
            do {
                self = .redis(try RedisConfiguration(url: text))
            } catch {
                throw ConfigurationError(error.reason)
            }
        } else {
            throw ConfigurationError(
                "unknown store '\(text)' (use memory, sqlite:PATH, redis://HOST:PORT/DB, redis-sentinel://HOST:PORT,…/MASTER or redis-cluster://HOST:PORT,…)"
            )
        }
    }

    /// Which store this names: the key its opener is registered under.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case memory
        case sqlite
        case redis
    }

    /// Which store this names.
    public var kind: Kind {
        switch self {
        case .memory: .memory
        case .sqlite: .sqlite
        case .redis: .redis
        }
    }

    /// The store as `--sessions` writes it: `memory`, `sqlite:PATH`, `redis://HOST:PORT/DB`,
    /// `redis-sentinel://HOST:PORT,…/MASTER/DB`, `redis-cluster://HOST:PORT,…`.
    public var description: String {
        switch self {
        case .memory: "memory"
        case .sqlite(let path, _): "sqlite:\(path)"
        case .redis(let redis, _): redis.url
        }
    }
}
