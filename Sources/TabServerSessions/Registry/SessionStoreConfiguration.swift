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
/// configuration.sessions = try SessionStoreConfiguration("folder:/var/lib/shop/sessions")  // an app's own store
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
    /// A store an app adds, named by a URL of its scheme (`folder:/var/lib/sessions`,
    /// `pg://db.internal/shop`): the opener the app registered for the scheme reads the rest.
    case url(String)

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
    /// `redis-cluster://HOST[:PORT][,HOST[:PORT]…]` (default capacity and key prefix), or
    /// `SCHEME:REST` for a store the app registers; anything else is refused, saying
    /// what is wrong. Whether a scheme has an opener is known when the app opens it.
    public init(_ text: String) throws(ConfigurationError) {
        let scheme = Self.scheme(of: text)
        if text.lowercased() == "memory" {
            self = .memory()
        } else if scheme == "sqlite" {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw ConfigurationError("'\(text)' has no path (use sqlite:PATH)") }
            self = .sqlite(path: path)
        } else if let scheme, RedisStoreOpener.schemes.contains(scheme) || scheme == "rediss" {
            do {
                self = .redis(try RedisConfiguration(url: text))
            } catch {
                throw ConfigurationError(error.reason)
            }
        } else if let scheme, text.count > scheme.count + 1 {
            self = .url(text)
        } else {
            throw ConfigurationError(
                "unknown store '\(text)' (use memory, sqlite:PATH, redis://HOST:PORT/DB, redis-sentinel://HOST:PORT,…/MASTER, redis-cluster://HOST:PORT,… or SCHEME:… of a store the app adds)"
            )
        }
    }

    /// The scheme `text` starts with (RFC 3986: a letter, then letters, digits, `+`, `-`
    /// or `.`, then a colon), lowercased; nil when it has none.
    static func scheme(of text: String) -> String? {
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter,
            scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) })
        else { return nil }
        return scheme.lowercased()
    }

    /// The scheme whose opener opens this store: `memory`, `sqlite`, `redis`,
    /// `redis-sentinel`, `redis-cluster`, or the scheme of a `.url`.
    public var scheme: String {
        switch self {
        case .memory: "memory"
        case .sqlite: "sqlite"
        case .redis(let redis, _): Self.scheme(of: redis.url) ?? "redis"
        case .url(let url): Self.scheme(of: url) ?? url
        }
    }

    /// What follows the scheme and its colon (`/var/lib/sessions` in
    /// `folder:/var/lib/sessions`): what an app's opener reads.
    public var location: String {
        let text = description
        guard let colon = text.firstIndex(of: ":") else { return "" }
        return String(text[text.index(after: colon)...])
    }

    /// The store as `--sessions` writes it: `memory`, `sqlite:PATH`, `redis://HOST:PORT/DB`,
    /// `redis-sentinel://HOST:PORT,…/MASTER/DB`, `redis-cluster://HOST:PORT,…`.
    public var description: String {
        switch self {
        case .memory: "memory"
        case .sqlite(let path, _): "sqlite:\(path)"
        case .redis(let redis, _): redis.url
        case .url(let url): url
        }
    }
}
