// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions

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
/// Admission: a new anonymous session is stored on probation (field `p`) with a short TTL
/// (`probationTTL`: a tenth of the idle timeout, at most a day) until its visitor comes back: the first load
/// establishes it and gives it the idle timeout. With Redis's `maxmemory-policy
/// volatile-ttl`, memory pressure evicts the keys nearest their end first, so a flood
/// of one-shot sessions evicts its own kind before any returning visitor's. Users'
/// records carry no TTL, so no `volatile-*` policy ever evicts them; one unused past the
/// idle timeout is deleted when it is next loaded (see docs/sessions.md).
///
/// Each instance keeps a bounded cache of decoded sessions keyed by revision. Every
/// write moves `rev` on, and a revision's bytes never change, so a load asks Redis
/// only for `rev` (`HGET`, a few bytes, no script): when it matches the cached copy,
/// that copy is the stored session, whichever instance wrote it. A different or
/// missing `rev` takes the full load script. So every load still sees the latest
/// write of every instance (read-your-writes across instances holds), at the price of
/// one small round trip. The last use is recorded (script, `seen`, TTL) only when the
/// recorded one is older than `touchInterval`, so reads do not write Redis each second.
///
/// Failures to reach Redis (refused, timeout) throw `SessionStoreError`, which the app
/// answers with 503 and `/readyz` reports. The first failure marks the store down
/// (`health`, logged once): from then on every call fails at once, without touching
/// the network, and a background probe (a new connection and `PING`, every 250 ms)
/// looks for Redis; its first success marks the store up (logged once) and calls go
/// to Redis again. So while Redis is away no request waits on a connect or a timeout.
/// Error replies (out of memory, a script error) fail their own call only; a
/// `READONLY` answer (a master demoted in a failover) counts as a failure to reach
/// Redis. Since a failover or a restart may have lost writes this instance has cached,
/// every such failure empties the cache of decoded sessions.
///
/// With Redis Sentinel (`redis-sentinel://…`) the client finds the master through the
/// sentinels, and the probe asks them again, so the store follows a failover by itself.
/// With `waitReplicas` set in the client's configuration, every write (insert, update,
/// delete) is followed by `WAIT`: a write that too few replicas acknowledge fails (the
/// visitor gets a 503), though the store stays up and its reads go on.
///
/// On a Redis Cluster (`redis-cluster://…`) the client routes each call to the primary
/// of its key's slot, and keys carry the session id as hash tag (`prefix{id}`). A
/// primary that fails fails only its own slots' calls (its client backs off and fails
/// fast): the store is not marked down for it, and `shards` says which one is away.
///
/// ```swift
/// let store = try RedisSessionStore(url: "redis://127.0.0.1:6379/0")
/// try store.insert(.new(now: now))
/// ```
public final class RedisSessionStore: SessionStore, EngineSessionStore {
    /// The client every call goes through (shared, thread-safe).
    public let client: RedisClient
    /// Idle and absolute lifetimes; the idle one is also the key's TTL.
    public let lifetime: SessionLifetime
    /// Prepended to the session id to make the key, so several apps can share a database.
    public let keyPrefix: String
    /// How old the recorded last use may get before a load records it again: a
    /// minute, or a tenth of the idle timeout when that is shorter. A key's TTL and
    /// `seen` are renewed that often at most, so a session may expire up to this much
    /// earlier than the idle timeout after its true last use.
    public let touchInterval: Int64
    /// How long a session on probation lives unless its visitor comes back (at most the
    /// idle timeout).
    public let probationTTL: Int64
    /// The probation TTL unless told otherwise: a tenth of the idle timeout, at most a day
    /// (a day for the default 30 days), so it always ends well before an established
    /// session's TTL.
    public static func probationTTL(idle: Int64) -> Int64 { max(1, min(86_400, idle / 10)) }
    let counters = SessionAdmissionCounters()
    /// Sessions created and promoted by this instance (Redis evicts, and counts that in
    /// its own `INFO stats` as `evicted_keys`).
    public var admission: SessionAdmissionCounts { counters.snapshot }

    struct Cached {
        var session: Session
        /// `seen` as recorded in Redis by this instance's last load or write.
        var recordedSeen: Int64
        /// This instance's pipelined writes of the session are unconfirmed: the copy is
        /// the last one (its `writeToken` set), applied here ahead of Redis.
        var inFlight = false
        /// The copy was such a write, and Redis refused it: never to be used or built on.
        var failed = false
        /// Stored by this instance on probation and not loaded since: the next load takes
        /// the script, which establishes it.
        var probationary = false
    }

    let cache = Mutex<[SessionID: Cached]>([:])
    let cacheCapacity: Int
    /// Revision checks and writes of many requests in one round trip (`isCurrent(_:then:)`,
    /// `update(_:then:)`).
    let pipeline: RedisPipeline
    /// Pipelined writes in flight, per session.
    let writing = Mutex<[SessionID: Int]>([:])
    /// Whether Redis has the update script (the pipeline then sends its hash only).
    let scriptLoaded = Atomic<Bool>(false)
    /// Tokens of this instance's pipelined writes: a random start, so two instances'
    /// tokens do not meet, counted up from there (never 0, which means "confirmed").
    let writeTokens = Atomic<UInt64>(UInt64.random(in: 1...(UInt64.max / 2)))
    /// `client.generation` when the cache was last checked against it.
    let cacheGeneration = Atomic<Int>(0)
    /// Whether Redis answers; while it does not, calls fail fast and a probe runs.
    public let health: StoreHealth
    /// Hashes whose bytes could not be decoded since start (each read as absent).
    public var undecodableSessions: Int { health.undecodable.total }

    /// A store on `client`.
    /// `cacheCapacity` bounds the decoded sessions kept in this process (least recently
    /// used go first).
    public init(
        client: RedisClient, lifetime: SessionLifetime = SessionLifetime(), keyPrefix: String = "tabserver:session:",
        cacheCapacity: Int = 50_000, probationTTL: Int64? = nil, log: StoreHealth.Log? = nil
    ) {
        // Lifetimes below a second would expire every session at once: one second at least.
        let lifetime = SessionLifetime(idle: max(1, lifetime.idle), absolute: max(1, lifetime.absolute))
        self.probationTTL = max(1, min(probationTTL ?? Self.probationTTL(idle: lifetime.idle), lifetime.idle))
        self.client = client
        self.lifetime = lifetime
        self.keyPrefix = keyPrefix
        self.touchInterval = min(60, lifetime.idle / 10)
        self.cacheCapacity = max(1, cacheCapacity)
        hashTagged = client.isCluster
        pipeline = RedisPipeline(client: client)
        health = StoreHealth(
            name: client.configuration.url,
            probeInterval: .milliseconds(250), log: log)
    }

    /// A store on a new client for `url` (`redis://host[:port][/database]`, or
    /// `redis-sentinel://host[:port],…/master[/database]`) with the
    /// default timeouts (500 ms to connect, 500 ms per command). A malformed URL throws
    /// a `SessionStoreError` saying what is wrong; nothing connects until the first call.
    public convenience init(
        url: String, lifetime: SessionLifetime = SessionLifetime(), keyPrefix: String = "tabserver:session:",
        log: StoreHealth.Log? = nil
    ) throws(SessionStoreError) {
        let client: RedisClient
        do {
            client = try RedisClient(url: url)
        } catch {
            throw SessionStoreError(error.reason)
        }
        self.init(client: client, lifetime: lifetime, keyPrefix: keyPrefix, log: log)
    }

    /// The Redis key of session `id`: `keyPrefix` + the id, and on a cluster the id in
    /// braces (a hash tag: every key of one session shares its slot).
    public func key(for id: SessionID) -> String {
        hashTagged ? keyPrefix + "{" + id.text + "}" : keyPrefix + id.text
    }

    /// Whether keys carry a hash tag (on a Redis Cluster).
    let hashTagged: Bool

    /// The session, or nil if unknown, expired at `now` (idle or absolute; the entry is
    /// then deleted) or unreadable. When the recorded last use is older than
    /// `touchInterval`, records `now` and renews the TTL in the same round trip.
    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        dropCacheIfMasterChanged()
        if let cached = cache.withLock({ $0[id] }), !cached.failed, !cached.inFlight, !cached.probationary,
            now - cached.recordedSeen < touchInterval,
            now >= cached.recordedSeen, !lifetime.isExpired(cached.session, now: now)
        {
            let reply = try command([Array("HGET".utf8), Array(key(for: id).utf8), Array("rev".utf8)])
            if reply.integer == cached.session.revision {
                var session = cached.session
                session.lastSeen = now
                return session
            }
            if reply.isNull || reply.errorMessage != nil {
                // Gone (expired, deleted) or no longer a hash: the script would say nil too.
                forget(id)
                return nil
            }
        }
        return try loadAndTouch(id, now: now)
    }

    /// The cached copy without a round trip when its recorded use is recent, else a
    /// full load. The app confirms a copy it does not write with `isCurrent`, and a
    /// stale copy it writes loses the compare-and-set, so no answer rests on it.
    public func loadOptimistically(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        dropCacheIfMasterChanged()
        if readsAtOnce(id, now: now), let cached = cache.withLock({ $0[id] }) {
            var session = cached.session
            session.lastSeen = now
            return session
        }
        return try loadAndTouch(id, now: now)
    }

    /// Whether `loadOptimistically` answers from the cached copy (no round trip).
    public func readsAtOnce(_ id: SessionID, now: Int64) -> Bool {
        dropCacheIfMasterChanged()
        guard let cached = cache.withLock({ $0[id] }) else { return false }
        return !cached.failed && !cached.probationary && now - cached.recordedSeen < touchInterval
            && now >= cached.recordedSeen && !lifetime.isExpired(cached.session, now: now)
    }

    /// A signed-in user's record is read and written with synchronous round trips.
    public var waitsForUsers: Bool { true }

    /// Sessions without a fresh cached copy are read from Redis.
    public var readsEverythingAtOnce: Bool { false }

    /// A new session is written with a round trip (`insert` waits for Redis).
    public var insertsAtOnce: Bool { false }

    /// The full load: one script checks expiry, records the use, renews the TTL.
    func loadAndTouch(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        let reply = try run(
            Self.loadScript, key: id,
            [String(now), String(lifetime.idle), String(lifetime.absolute)].map { Array($0.utf8) })
        // Null: unknown, expired, or not a hash this version wrote.
        guard let fields = reply.array, fields.count == 3, let revision = fields[0].integer,
            let data = fields[1].bytes
        else {
            forget(id)
            return nil
        }
        if fields[2].integer == 1 { counters.recordPromoted() }
        // Bytes this version cannot read count as absent, and stay in place: they may
        // belong to a newer version of the server during a rolling deployment.
        var decoded: Session?
        do {
            decoded = try SessionCodec.decode(data, id: id, revision: revision)
        } catch {
            health.recordUndecodable(error)
        }
        guard var session = decoded,
            // The script checked the absolute lifetime against the `created` field; check
            // the session's own creation time too, in case the two ever disagree.
            now - session.created <= lifetime.absolute
        else {
            forget(id)
            return nil
        }
        session.lastSeen = now
        remember(session, recordedSeen: now)
        return session
    }

    /// Stores a new session with a TTL. Never overwrites: if the key exists, nothing is
    /// written and this throws.
    public func insert(_ session: Session) throws(SessionStoreError) {
        let arguments = [
            Array(String(session.revision).utf8), SessionCodec.encode(session), Array(String(session.created).utf8),
            Array(String(session.lastSeen).utf8), Array(String(timeToLive(forNew: session)).utf8),
            Array((SessionStanding.ofNew(session) == .probationary ? "1" : "0").utf8),
        ]
        let reply = try run(Self.insertScript, key: session.id, arguments, replicated: true)
        guard reply.integer == 1 else {
            // 128 random bits make this practically impossible; if it happens, refusing
            // is right: overwriting would hand one visitor another's session.
            throw SessionStoreError("\(client.configuration.url): session \(session.id) already exists")
        }
        counters.recordCreated()
        remember(session, recordedSeen: session.lastSeen, probationary: SessionStanding.ofNew(session) == .probationary)
    }

    /// Compare-and-set: writes `session` only if the stored revision is still
    /// `session.revision` (checked and written atomically by one script), and returns it
    /// with the new revision; nil when another request or instance wrote first, or the
    /// session is gone. Renews the TTL.
    public func update(_ session: Session) throws(SessionStoreError) -> Session? {
        guard !isRefused(session) else {
            forget(session.id)
            return nil
        }
        let arguments = [
            Array(String(session.revision).utf8), SessionCodec.encode(session), Array(String(session.lastSeen).utf8),
            Array(String(timeToLive(for: session)).utf8), Self.tokenText(session.writeToken), [],
        ]
        let reply = try run(Self.updateScript, key: session.id, arguments, replicated: true)
        // Null: the revision moved on, or the session is gone. Either way nothing was written.
        guard let revision = reply.integer else {
            forget(session.id)
            return nil
        }
        var stored = session
        stored.revision = revision
        stored.writeToken = 0
        remember(stored, recordedSeen: stored.lastSeen)
        return stored
    }

    /// Removes a session (unknown ids are ignored).
    public func delete(_ id: SessionID) throws(SessionStoreError) {
        forget(id)
        let reply = try command([Array("DEL".utf8), Array(key(for: id).utf8)], replicated: true)
        if let message = reply.errorMessage { throw serverError(message) }
    }

    /// Returns 0: every key carries a TTL (the idle timeout, capped by the absolute one),
    /// so Redis removes expired sessions itself and there is nothing to sweep.
    @discardableResult
    public func sweep(now: Int64) throws(SessionStoreError) -> Int { 0 }

    /// Whether a write could succeed now: Redis answers within the timeouts (false at once
    /// while the store is down, until the background probe reaches Redis), the server is a
    /// primary, and writes that wait for replicas have them (`--redis-wait-replicas`); on
    /// a cluster, every shard so, and every slot served.
    public func checkReady() -> Bool {
        if client.isCluster {
            let shards = shards ?? []
            return !shards.isEmpty && shards.allSatisfy(\.isUp)
        }
        guard (try? failFastWhileDown()) != nil else { return false }
        return client.writeProblem(probeKey: readinessKey) == nil
    }

    /// Seconds the key should live after a write at `session.lastSeen`: the idle time,
    /// but never past the absolute end; at least 1, since `EXPIRE 0` deletes at once.
    /// 0 for a user's record: it gets no TTL (see the type's documentation).
    func timeToLive(for session: Session) -> Int64 {
        guard !session.isUserRecord else { return 0 }
        let remaining = lifetime.absolute - (session.lastSeen - session.created)
        return max(1, min(lifetime.idle, remaining))
    }

    /// The TTL of a new session: a probationary one lives `probationTTL` at most.
    func timeToLive(forNew session: Session) -> Int64 {
        let full = timeToLive(for: session)
        return SessionStanding.ofNew(session) == .probationary ? min(full, probationTTL) : full
    }

    /// Keeps the decoded `session` for later loads, unless a newer revision is cached.
    func remember(_ session: Session, recordedSeen: Int64, probationary: Bool = false) {
        cache.withLock { cache in
            if let current = cache[session.id] {
                guard current.session.revision <= session.revision else { return }
            } else {
                cache.evictLeastRecentlyUsed(toFit: cacheCapacity) { $0.session.lastSeen }
            }
            cache[session.id] = Cached(session: session, recordedSeen: recordedSeen, probationary: probationary)
        }
    }

    func forget(_ id: SessionID) {
        _ = cache.withLock { $0.removeValue(forKey: id) }
    }
}
