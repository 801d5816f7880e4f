// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerRedis
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
    private let counters = SessionAdmissionCounters()
    /// Sessions created and promoted by this instance (Redis evicts, and counts that in
    /// its own `INFO stats` as `evicted_keys`).
    public var admission: SessionAdmissionCounts { counters.snapshot }

    private struct Cached {
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

    private let cache = Mutex<[SessionID: Cached]>([:])
    private let cacheCapacity: Int
    /// Revision checks and writes of many requests in one round trip (`isCurrent(_:then:)`,
    /// `update(_:then:)`).
    private let pipeline: RedisPipeline
    /// Pipelined writes in flight, per session.
    private let writing = Mutex<[SessionID: Int]>([:])
    /// Whether Redis has the update script (the pipeline then sends its hash only).
    private let scriptLoaded = Atomic<Bool>(false)
    /// Tokens of this instance's pipelined writes: a random start, so two instances'
    /// tokens do not meet, counted up from there (never 0, which means "confirmed").
    private let writeTokens = Atomic<UInt64>(UInt64.random(in: 1...(UInt64.max / 2)))
    /// `client.generation` when the cache was last checked against it.
    private let cacheGeneration = Atomic<Int>(0)
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

    /// The Redis key of session `id`.
    public func key(for id: SessionID) -> String { keyPrefix + id.text }

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

    /// One `HGET` of `rev`: whether `session` is still the stored revision. A stale
    /// cached copy is dropped.
    public func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool {
        guard !isRefused(session) else {
            forget(session.id)
            return false
        }
        let reply = try command(revisionCheck(session))
        if matches(reply, session) { return true }
        forget(session.id)
        return false
    }

    /// Empties the cache when the client has moved to another master (a Sentinel
    /// failover) since the last look: without `WAIT`, the new master may lack writes the
    /// cache holds, and a revision number may come to stand for other bytes there.
    private func dropCacheIfMasterChanged() {
        let generation = client.generation
        guard cacheGeneration.exchange(generation, ordering: .relaxed) != generation else { return }
        cache.withLock { $0.removeAll() }
    }

    /// Whether `session` is a write of this instance that Redis refused (known here once
    /// its answer came; Redis refuses whatever is built on it in any case).
    private func isRefused(_ session: Session) -> Bool {
        guard session.writeToken != 0 else { return false }
        return cache.withLock { cache in
            guard let cached = cache[session.id], cached.session.revision == session.revision,
                cached.session.writeToken == session.writeToken
            else { return false }
            return cached.failed
        }
    }

    /// `HGET rev`, or for a copy that is an unconfirmed write of this instance `HMGET rev
    /// w`: another instance's write may carry the same revision.
    private func revisionCheck(_ session: Session) -> [[UInt8]] {
        let key = Array(key(for: session.id).utf8)
        guard session.writeToken != 0 else { return [Array("HGET".utf8), key, Array("rev".utf8)] }
        return [Array("HMGET".utf8), key, Array("rev".utf8), Array("w".utf8)]
    }

    private func matches(_ reply: RedisReply, _ session: Session) -> Bool {
        guard session.writeToken != 0 else { return reply.integer == session.revision }
        guard let fields = reply.array, fields.count == 2 else { return false }
        return fields[0].integer == session.revision && fields[1].bytes == Self.tokenText(session.writeToken)
    }

    /// A write token as the script compares it (empty for 0: no token).
    private static func tokenText(_ token: UInt64) -> [UInt8] {
        token == 0 ? [] : Array(String(token).utf8)
    }

    /// Checks and writes go through the shared pipeline (see below).
    public var answersLater: Bool { true }

    /// The same `HGET` sent in the shared pipeline, so the engine thread does not wait
    /// for it and many requests' checks share one round trip. While the store is down it
    /// declines (the synchronous call then fails fast).
    public func isCurrent(
        _ session: Session, then done: @escaping @Sendable (Result<Bool, SessionStoreError>) -> Void
    ) -> Bool {
        guard health.isUp, !isRefused(session) else { return false }  // the synchronous check answers at once
        pipeline.send(revisionCheck(session)) { [self] result in
            switch result {
            case .success(let reply):
                health.recordSuccess()
                if matches(reply, session) {
                    done(.success(true))
                } else {
                    forget(session.id)
                    done(.success(false))
                }
            case .failure(let error):
                done(.failure(failed(error)))
            }
        }
        return true
    }

    /// The compare-and-set script sent in the shared pipeline, applied to this instance's
    /// copy at once: the next request of the session builds on it and its write queues
    /// behind this one in the same pipeline (so a visitor's quick taps do not wait for
    /// each other's round trips). Each such write carries a token, stored with it in
    /// Redis, and so does the copy built on it: a write resting on an unconfirmed one
    /// names its token, so it fails, like its predecessor, if another instance wrote
    /// first, whatever this instance's cache forgot or reloaded meanwhile. Each failed
    /// write forgets the copy. Declines while the store is down.
    public func update(
        _ session: Session, then done: @escaping @Sendable (Result<Session?, SessionStoreError>) -> Void
    ) -> Bool {
        guard health.isUp, !isRefused(session) else { return false }
        let bytes = SessionCodec.encode(session)
        let stored = session.withRevision(
            session.revision + 1, writeToken: max(1, writeTokens.wrappingAdd(1, ordering: .relaxed).newValue))
        cache.withLock { cache in
            if cache[session.id] == nil { cache.evictLeastRecentlyUsed(toFit: cacheCapacity) { $0.session.lastSeen } }
            cache[session.id] = Cached(session: stored, recordedSeen: stored.lastSeen, inFlight: true)
        }
        writing.withLock { $0[session.id, default: 0] += 1 }
        let arguments = [
            Array(String(session.revision).utf8), bytes, Array(String(session.lastSeen).utf8),
            Array(String(timeToLive(for: session)).utf8), Self.tokenText(session.writeToken),
            Self.tokenText(stored.writeToken),
        ]
        send(Self.updateScript, key: session.id, arguments, replicated: true) { [self] result in
            let last = writing.withLock { writing -> Bool in
                let left = (writing[session.id] ?? 1) - 1
                writing[session.id] = left > 0 ? left : nil
                return left <= 0
            }
            switch result {
            case .success(let reply):
                health.recordSuccess()
                guard reply.errorMessage == nil, let revision = reply.integer, revision == stored.revision else {
                    // Not written (the revision or token moved on, the session is gone, or
                    // an error reply): the copy here is not what Redis holds.
                    markFailed(stored)
                    if let message = reply.errorMessage, !message.hasPrefix("NOSCRIPT") {
                        done(.failure(serverError(message)))
                    } else {
                        done(.success(nil))
                    }
                    return
                }
                if last {
                    cache.withLock { cache in
                        if cache[session.id]?.session.writeToken == stored.writeToken {
                            cache[session.id]?.inFlight = false
                        }
                    }
                }
                done(.success(stored))
            case .failure(let error):
                markFailed(stored)
                done(.failure(failed(error)))
            }
        }
        return true
    }

    /// Marks this instance's copy of `stored`, a write Redis refused, as never to be used.
    private func markFailed(_ stored: Session) {
        cache.withLock { cache in
            guard let cached = cache[stored.id], cached.session.revision == stored.revision,
                cached.session.writeToken == stored.writeToken
            else { return }
            cache[stored.id]?.failed = true
            cache[stored.id]?.inFlight = false
        }
    }

    /// Runs the update script through the pipeline: with its source (`EVAL`) until Redis
    /// has it, then by hash (`EVALSHA`). A `NOSCRIPT` answer (Redis restarted or flushed
    /// its scripts) is not retried here, where a retry would overtake the writes queued
    /// behind it: the write counts as lost and its request runs again.
    private func send(
        _ script: RedisScript, key id: SessionID, _ arguments: [[UInt8]], replicated: Bool,
        done: @escaping @Sendable (Result<RedisReply, RedisError>) -> Void
    ) {
        let tail = [Array("1".utf8), Array(key(for: id).utf8)] + arguments
        let byHash = scriptLoaded.load(ordering: .relaxed)
        let head =
            byHash
            ? [Array("EVALSHA".utf8), Array(script.sha1.utf8)] : [Array("EVAL".utf8), Array(script.source.utf8)]
        pipeline.send(head + tail, replicated: replicated) { [self] result in
            if case .success(let reply) = result {
                let unknown = reply.errorMessage?.hasPrefix("NOSCRIPT") ?? false
                scriptLoaded.store(!unknown, ordering: .relaxed)
            }
            done(result)
        }
    }

    /// The full load: one script checks expiry, records the use, renews the TTL.
    private func loadAndTouch(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
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

    /// Whether Redis answers `PING` within the timeouts (false at once while the store
    /// is down, until the background probe reaches Redis).
    public func checkReady() -> Bool {
        do {
            _ = try command(["PING"])
            return true
        } catch {
            return false
        }
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
    private func remember(_ session: Session, recordedSeen: Int64, probationary: Bool = false) {
        cache.withLock { cache in
            if let current = cache[session.id] {
                guard current.session.revision <= session.revision else { return }
            } else {
                cache.evictLeastRecentlyUsed(toFit: cacheCapacity) { $0.session.lastSeen }
            }
            cache[session.id] = Cached(session: session, recordedSeen: recordedSeen, probationary: probationary)
        }
    }

    private func forget(_ id: SessionID) {
        _ = cache.withLock { $0.removeValue(forKey: id) }
    }

    /// Runs one plain command, mapping failures to `SessionStoreError` (an error reply
    /// is returned).
    private func command(_ arguments: [[UInt8]], replicated: Bool = false) throws(SessionStoreError) -> RedisReply {
        try failFastWhileDown()
        do {
            let reply = try client.command(arguments, replicated: replicated)
            health.recordSuccess()
            return reply
        } catch {
            throw failed(error)
        }
    }

    private func command(_ arguments: [String]) throws(SessionStoreError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// While the store is down, every call fails here at once, quoting the failure.
    private func failFastWhileDown() throws(SessionStoreError) {
        if let failure = health.lastFailure {
            throw SessionStoreError("\(failure.reason) (failing fast until a background probe reaches Redis)")
        }
    }

    /// A failure to reach Redis: the store is down until the probe gets a `PONG`. A write
    /// the replicas did not acknowledge fails alone: Redis answers, and reads go on.
    private func failed(_ error: RedisError) -> SessionStoreError {
        let failure = SessionStoreError(error.reason)
        guard error.kind != .notReplicated else { return failure }
        // After an outage Redis may hold less than this instance saw (a failover that lost
        // writes, a restart): no cached copy is to be trusted.
        cache.withLock { $0.removeAll() }
        health.recordFailure(failure) { [weak self] in
            guard let self else { return true }
            do {
                try self.client.probe()
                return true
            } catch {
                return false
            }
        }
        return failure
    }

    /// Runs `script` on this session's key, mapping failures to `SessionStoreError`.
    /// `replicated`: a write, followed by `WAIT` when the configuration wants replicas;
    /// when too few acknowledge it, it throws and this instance forgets the session.
    private func run(
        _ script: RedisScript, key id: SessionID, _ arguments: [[UInt8]], replicated: Bool = false
    ) throws(SessionStoreError) -> RedisReply {
        try failFastWhileDown()
        let reply: RedisReply
        do {
            reply = try client.evaluate(
                script, keys: [Array(key(for: id).utf8)], arguments: arguments, replicated: replicated)
            health.recordSuccess()
        } catch {
            if error.kind == .notReplicated { forget(id) }
            throw failed(error)
        }
        if let message = reply.errorMessage { throw serverError(message) }
        return reply
    }

    /// An error reply (out of memory, read-only replica, script error): Redis is there
    /// but cannot serve, which for the app is the same as unavailable.
    private func serverError(_ message: String) -> SessionStoreError {
        SessionStoreError("\(client.configuration.url): \(message)")
    }
}
