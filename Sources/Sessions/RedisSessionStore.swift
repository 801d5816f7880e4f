import Redis

/// Sessions in Redis, shared by every server instance that points at the same server.
///
/// Each session is a hash under `keyPrefix + id.text` with four fields: `rev` (the
/// write counter for compare-and-set), `data` (the `SessionCodec` bytes), `created`
/// and `seen` (seconds, so expiry is decided in the server without decoding `data`).
/// Every operation is one Lua script, so each is atomic and one round trip:
///
/// - `load` checks the idle and absolute lifetimes at `now`, records `now` as the last
///   use and renews the key's TTL, or deletes an expired entry;
/// - `insert` writes only if the key does not exist;
/// - `update` writes only if `rev` is still the caller's revision (compare-and-set).
///
/// The TTL is the idle timeout, cut short at the absolute end of the session, so Redis
/// itself removes abandoned sessions: `sweep` has nothing to do.
///
/// Failures to reach Redis (refused, timeout, backing off) throw `SessionStoreError`,
/// which the app answers with 503 and `/readyz` reports; the `RedisClient` beneath
/// recovers by itself when Redis is back.
///
/// ```swift
/// let store = try RedisSessionStore(url: "redis://127.0.0.1:6379/0")
/// try store.insert(.new(now: now))
/// ```
public final class RedisSessionStore: SessionStore {
    /// The client every call goes through (shared, thread-safe).
    public let client: RedisClient
    /// Idle and absolute lifetimes; the idle one is also the key's TTL.
    public let lifetime: SessionLifetime
    /// Prepended to the session id to make the key, so several apps can share a database.
    public let keyPrefix: String

    /// A store on `client`.
    public init(
        client: RedisClient, lifetime: SessionLifetime = SessionLifetime(), keyPrefix: String = "tabserver:session:"
    ) {
        precondition(lifetime.idle >= 1 && lifetime.absolute >= 1, "session lifetimes must be positive")
        self.client = client
        self.lifetime = lifetime
        self.keyPrefix = keyPrefix
    }

    /// A store on a new client for `url` (`redis://host[:port][/database]`) with the
    /// default timeouts (500 ms to connect, 500 ms per command). A malformed URL throws
    /// a `SessionStoreError` saying what is wrong; nothing connects until the first call.
    public convenience init(
        url: String, lifetime: SessionLifetime = SessionLifetime(), keyPrefix: String = "tabserver:session:"
    ) throws(SessionStoreError) {
        let client: RedisClient
        do {
            client = try RedisClient(url: url)
        } catch {
            throw SessionStoreError(error.reason)
        }
        self.init(client: client, lifetime: lifetime, keyPrefix: keyPrefix)
    }

    /// The Redis key of session `id`.
    public func key(for id: SessionID) -> String { keyPrefix + id.text }

    /// The session, or nil if unknown, expired at `now` (idle or absolute; the entry is
    /// then deleted) or unreadable. Records `now` as its last use and renews its TTL, in
    /// the same round trip.
    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        let reply = try run(
            Self.loadScript, key: id,
            [String(now), String(lifetime.idle), String(lifetime.absolute)].map { Array($0.utf8) })
        // Null: unknown, expired, or not a hash this version wrote.
        guard let fields = reply.array, fields.count == 2, let revision = fields[0].integer,
            let data = fields[1].bytes
        else { return nil }
        // Bytes this version cannot read count as absent, and stay in place: they may
        // belong to a newer version of the server during a rolling deployment.
        guard var session = try? SessionCodec.decode(data, id: id, revision: revision) else { return nil }
        // The script checked the absolute lifetime against the `created` field; check the
        // session's own creation time too, in case the two ever disagree.
        guard now - session.created <= lifetime.absolute else { return nil }
        session.lastSeen = now
        return session
    }

    /// Stores a new session with a TTL. Never overwrites: if the key exists, nothing is
    /// written and this throws.
    public func insert(_ session: Session) throws(SessionStoreError) {
        let arguments = [
            Array(String(session.revision).utf8), SessionCodec.encode(session), Array(String(session.created).utf8),
            Array(String(session.lastSeen).utf8), Array(String(timeToLive(for: session)).utf8),
        ]
        let reply = try run(Self.insertScript, key: session.id, arguments)
        guard reply.integer == 1 else {
            // 128 random bits make this practically impossible; if it happens, refusing
            // is right: overwriting would hand one visitor another's session.
            throw SessionStoreError("redis \(client.configuration.endpoint): session \(session.id) already exists")
        }
    }

    /// Compare-and-set: writes `session` only if the stored revision is still
    /// `session.revision` (checked and written atomically by one script), and returns it
    /// with the new revision; nil when another request or instance wrote first, or the
    /// session is gone. Renews the TTL.
    public func update(_ session: Session) throws(SessionStoreError) -> Session? {
        let arguments = [
            Array(String(session.revision).utf8), SessionCodec.encode(session), Array(String(session.lastSeen).utf8),
            Array(String(timeToLive(for: session)).utf8),
        ]
        let reply = try run(Self.updateScript, key: session.id, arguments)
        // Null: the revision moved on, or the session is gone. Either way nothing was written.
        guard let revision = reply.integer else { return nil }
        var stored = session
        stored.revision = revision
        return stored
    }

    /// Removes a session (unknown ids are ignored).
    public func delete(_ id: SessionID) throws(SessionStoreError) {
        let reply: RedisReply
        do {
            reply = try client.command([Array("DEL".utf8), Array(key(for: id).utf8)])
        } catch {
            throw SessionStoreError(error.reason)
        }
        if let message = reply.errorMessage { throw serverError(message) }
    }

    /// Returns 0: every key carries a TTL (the idle timeout, capped by the absolute one),
    /// so Redis removes expired sessions itself and there is nothing to sweep.
    @discardableResult
    public func sweep(now: Int64) throws(SessionStoreError) -> Int { 0 }

    /// Whether Redis answers `PING` within the timeouts (false at once while the client
    /// backs off after a failure).
    public func checkReady() -> Bool {
        do {
            try client.ping()
            return true
        } catch {
            return false
        }
    }

    /// Seconds the key should live after a write at `session.lastSeen`: the idle time,
    /// but never past the absolute end; at least 1, since `EXPIRE 0` deletes at once.
    func timeToLive(for session: Session) -> Int64 {
        let remaining = lifetime.absolute - (session.lastSeen - session.created)
        return max(1, min(lifetime.idle, remaining))
    }

    /// Runs `script` on this session's key, mapping failures to `SessionStoreError`.
    private func run(_ script: RedisScript, key id: SessionID, _ arguments: [[UInt8]]) throws(SessionStoreError)
        -> RedisReply
    {
        let reply: RedisReply
        do {
            reply = try client.evaluate(script, keys: [Array(key(for: id).utf8)], arguments: arguments)
        } catch {
            throw SessionStoreError(error.reason)
        }
        if let message = reply.errorMessage { throw serverError(message) }
        return reply
    }

    /// An error reply (out of memory, read-only replica, script error): Redis is there
    /// but cannot serve, which for the app is the same as unavailable.
    private func serverError(_ message: String) -> SessionStoreError {
        SessionStoreError("redis \(client.configuration.endpoint): \(message)")
    }
}
