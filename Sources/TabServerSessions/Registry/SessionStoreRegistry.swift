// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The session stores an app can open from its configuration: one opener per URL scheme
/// (`memory`, `sqlite`, `redis`…). The memory store is built in; the store modules
/// register their own, so this module links none of them: `TabServerSQLiteSessions` gives
/// `.standard` (memory and SQLite, the default store), `TabServerRedisSessions` gives the
/// Redis opener an app adds with `app.redis(.standard)`, and an app adds its own store
/// with `app.sessionStores(scheme:_:)`.
///
/// ```swift
/// var stores = SessionStoreRegistry.standard
/// stores.register(scheme: "folder") { configuration, opening throws(SessionStoreError) in
///     (try FolderStore(configuration.description, lifetime: opening.lifetime), nil)
/// }
/// let opened = try stores.open(.url("folder:/tmp/s"), lifetime: lifetime, healthLog: { _, _ in }, log: .standardError)
/// ```
public struct SessionStoreRegistry: Sendable {
    /// What an opener gets besides the configuration.
    public struct Opening: Sendable {
        /// How long sessions live.
        public let lifetime: SessionLifetime
        /// Hears once when the store starts failing and once when it works again.
        public let healthLog: StoreHealth.Log
        /// Where the store's own messages go.
        public let log: LogSink
    }

    /// The store, and the relay that carries live events between instances sharing it
    /// (nil for a store of one instance).
    public typealias Opened = (store: any SessionStore, relay: (any EventRelay)?)

    /// Opens the store a configuration of its scheme names; an error stops start-up with
    /// its reason.
    public typealias Opener =
        @Sendable (SessionStoreConfiguration, Opening) throws(SessionStoreError) -> Opened

    private var openers: [String: Opener] = [:]

    /// A registry with the memory store only.
    public init() {
        register(scheme: "memory") { configuration, opening throws(SessionStoreError) in
            guard case .memory(let capacity) = configuration else { throw Self.mismatch(configuration, "memory") }
            guard capacity >= 1 else {
                throw SessionStoreError("the memory session store needs a capacity of at least 1")
            }
            return (MemorySessionStore(capacity: capacity, lifetime: opening.lifetime), nil)
        }
    }

    /// Opens the configurations of `scheme` (case-insensitive) with `opener` from now on,
    /// replacing any before.
    public mutating func register(scheme: String, _ opener: @escaping Opener) {
        openers[scheme.lowercased()] = opener
    }

    /// Whether a store of `scheme` can be opened.
    public func contains(scheme: String) -> Bool { openers[scheme.lowercased()] != nil }

    /// Opens the store `configuration` names, or says which module and call would add it.
    public func open(
        _ configuration: SessionStoreConfiguration, lifetime: SessionLifetime,
        healthLog: @escaping StoreHealth.Log, log: LogSink
    ) throws(SessionStoreError) -> Opened {
        guard let opener = openers[configuration.scheme] else {
            throw SessionStoreError(missing(configuration.scheme))
        }
        return try opener(configuration, Opening(lifetime: lifetime, healthLog: healthLog, log: log))
    }

    /// Why no store of `scheme` opens, and what would add one.
    func missing(_ scheme: String) -> String {
        switch scheme {
        case "sqlite":
            "this app is built without SQLite sessions; open the app with `SessionStoreRegistry.standard` from TabServerSQLiteSessions"
        case "redis", "redis-sentinel", "redis-cluster":
            "this app is built without Redis sessions; add the TabServerRedisSessions product and call `app.redis(.standard)` (or pass `redis: .standard` to buildApplication)"
        default:
            "no session store is registered for the scheme '\(scheme)' (this app opens \(openers.keys.sorted().joined(separator: ", ")); an app adds one with `app.sessionStores(scheme:_:)`)"
        }
    }

    /// An opener handed a configuration it does not open (a registration mistake).
    package static func mismatch(_ configuration: SessionStoreConfiguration, _ opener: String) -> SessionStoreError {
        SessionStoreError("the \(opener) opener cannot open \(configuration)")
    }
}
