// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The session stores an app can open from its configuration: one opener per kind of
/// store. The memory store is built in; the store modules register their own, so this
/// module links none of them: `TabServerSQLiteSessions` gives `.standard` (memory and
/// SQLite, the default store), and `TabServerRedisSessions` gives the Redis opener an app
/// adds with `app.redis(.standard)`.
///
/// ```swift
/// var stores = SessionStoreRegistry.standard
/// stores.register(.redis, RedisStoreOpener.standard.opener)
/// let opened = try stores.open(.memory(), lifetime: lifetime, healthLog: { _, _ in }, log: .standardError)
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

    /// Opens the store a configuration of its kind names; an error stops start-up with
    /// its reason.
    public typealias Opener =
        @Sendable (SessionStoreConfiguration, Opening) throws(SessionStoreError) -> Opened

    private var openers: [SessionStoreConfiguration.Kind: Opener] = [:]

    /// A registry with the memory store only.
    public init() {
        register(.memory) { configuration, opening throws(SessionStoreError) in
            guard case .memory(let capacity) = configuration else { throw Self.mismatch(configuration, .memory) }
            guard capacity >= 1 else {
                throw SessionStoreError("the memory session store needs a capacity of at least 1")
            }
            return (MemorySessionStore(capacity: capacity, lifetime: opening.lifetime), nil)
        }
    }

    /// Opens `kind`'s configurations with `opener` from now on (replacing any before).
    public mutating func register(_ kind: SessionStoreConfiguration.Kind, _ opener: @escaping Opener) {
        openers[kind] = opener
    }

    /// Whether a store of `kind` can be opened.
    public func contains(_ kind: SessionStoreConfiguration.Kind) -> Bool { openers[kind] != nil }

    /// Opens the store `configuration` names, or says which module and call would add it.
    public func open(
        _ configuration: SessionStoreConfiguration, lifetime: SessionLifetime,
        healthLog: @escaping StoreHealth.Log, log: LogSink
    ) throws(SessionStoreError) -> Opened {
        guard let opener = openers[configuration.kind] else {
            throw SessionStoreError("this app is built without \(Self.missing(configuration.kind))")
        }
        return try opener(configuration, Opening(lifetime: lifetime, healthLog: healthLog, log: log))
    }

    /// What adds a store of `kind` to an app that lacks it.
    static func missing(_ kind: SessionStoreConfiguration.Kind) -> String {
        switch kind {
        case .memory: "memory sessions"
        case .sqlite:
            "SQLite sessions; open the app with `SessionStoreRegistry.standard` from TabServerSQLiteSessions"
        case .redis:
            "Redis sessions; add the TabServerRedisSessions product and call `app.redis(.standard)` (or pass `redis: .standard` to buildApplication)"
        }
    }

    /// An opener handed a configuration of another kind (a registration mistake).
    package static func mismatch(_ configuration: SessionStoreConfiguration, _ kind: SessionStoreConfiguration.Kind)
        -> SessionStoreError
    {
        SessionStoreError("the \(kind.rawValue) opener cannot open \(configuration)")
    }
}
