// SPDX-License-Identifier: Apache-2.0
import TabServerRedisSessions
import TabServerSessions
import TabServerTabBar
import TabServerTestSupport
import TabServerTesting
import Testing

/// Each test gets a fresh `redis-server` (the suite is created anew per test).
@Suite("RedisSessionStore")
struct RedisSessionStoreTests {
    let redis: RedisServer
    let store: RedisSessionStore

    init() throws {
        redis = try RedisServer()
        store = try RedisSessionStore(url: redis.url)
    }

    @Test("an inserted session loads back with every field")
    func roundTrip() throws {
        let session = RedisTestHelpers.richSession(now: 1_700_000_000)
        try store.insert(session)
        let loaded = try #require(try store.load(session.id, now: 1_700_000_000))
        #expect(loaded == session)
        #expect(loaded.id == session.id)
        #expect(loaded.csrfToken == session.csrfToken)
        #expect(loaded.state == session.state)
        #expect(loaded.state.badgeOverrides["music"] == .badge(.count(7, color: "#ff3b30")))
        #expect(loaded.language == "fr-CA")
        #expect(loaded.notice == session.notice)
        #expect(loaded.customizationStart == ["home", "music"])
        #expect(loaded.created == session.created)
        #expect(loaded.lastSeen == session.lastSeen)
        #expect(loaded.revision == 0)
    }

    @Test("a fresh session with default fields round-trips too")
    func freshRoundTrip() throws {
        let session = Session.new(now: 5)
        try store.insert(session)
        #expect(try store.load(session.id, now: 5) == session)
    }

    @Test("an unknown id loads as nil")
    func unknown() throws {
        try store.insert(Session.new(now: 0))
        #expect(try store.load(SessionID.generate(), now: 0) == nil)
    }

    @Test("inserting an existing id is refused and does not overwrite")
    func insertExisting() throws {
        let original = RedisTestHelpers.richSession(now: 100)
        try store.insert(original)
        var impostor = Session(
            id: original.id, csrfToken: .generate(), state: TabBarState(), language: "de", created: 100,
            lastSeen: 100, revision: 0)
        impostor.state.selectedTabID = "video"
        #expect(throws: SessionStoreError.self) { try store.insert(impostor) }
        #expect(try store.load(original.id, now: 100) == original)
    }

    @Test("delete removes one session; unknown ids are ignored")
    func delete() throws {
        let a = Session.new(now: 0)
        let b = Session.new(now: 0)
        try store.insert(a)
        try store.insert(b)
        try store.delete(a.id)
        #expect(try store.load(a.id, now: 0) == nil)
        #expect(try store.load(b.id, now: 0) != nil)
        try store.delete(SessionID.generate())
        try store.delete(a.id)
        #expect(try store.update(a) == nil, "a deleted session is not brought back by update")
        #expect(try store.load(a.id, now: 0) == nil)
    }

    @Test("loading records the time of the request and keeps the creation time")
    func loadTouches() throws {
        let session = Session.new(now: 100)
        try store.insert(session)
        #expect(try #require(try store.load(session.id, now: 150)).lastSeen == 150)
        #expect(try #require(try store.load(session.id, now: 151)).created == 100)
    }

    @Test(
        "the key's TTL is the probation TTL, then the idle timeout; a load renews it once the recorded use is a touch interval old"
    )
    func timeToLive() throws {
        let store = RedisSessionStore(client: store.client, lifetime: SessionLifetime(idle: 600, absolute: 86_400))
        #expect(store.touchInterval == 60)
        let session = Session.new(now: 1_000)
        try store.insert(session)
        // On probation first: a tenth of the idle timeout.
        let afterInsert = try RedisTestHelpers.timeToLive(store, session.id)
        #expect((59...60).contains(afterInsert))
        // Its visitor comes back: established, with the idle timeout (a probationary
        // session's first load always takes the script); from here on, loads record the
        // use once a touch interval.
        #expect(try store.load(session.id, now: 1_000) != nil)
        #expect((599...600).contains(try RedisTestHelpers.timeToLive(store, session.id)))

        // Shorten it by hand, as if time had passed. A load within the touch interval
        // writes nothing; the first one after it sets the TTL back to the idle time.
        _ = try store.client.command(["EXPIRE", store.key(for: session.id), "5"])
        #expect(try RedisTestHelpers.timeToLive(store, session.id) <= 5)
        #expect(try store.load(session.id, now: 1_059) != nil)
        #expect(try RedisTestHelpers.timeToLive(store, session.id) <= 5)
        #expect(try store.client.command(["HGET", store.key(for: session.id), "seen"]).integer == 1_000)
        #expect(try store.load(session.id, now: 1_060) != nil)
        #expect((599...600).contains(try RedisTestHelpers.timeToLive(store, session.id)))
        #expect(try store.client.command(["HGET", store.key(for: session.id), "seen"]).integer == 1_060)

        // An update renews it as well.
        _ = try store.client.command(["EXPIRE", store.key(for: session.id), "5"])
        var copy = try #require(try store.load(session.id, now: 1_070))
        _ = try store.client.command(["EXPIRE", store.key(for: session.id), "5"])
        copy.language = "it"
        #expect(try store.update(copy) != nil)
        #expect((599...600).contains(try RedisTestHelpers.timeToLive(store, session.id)))
    }

    @Test("two instances: each load sees the other's latest write, whatever either has cached")
    func cacheAcrossInstances() throws {
        let other = try RedisSessionStore(url: redis.url)
        let session = Session.new(now: 0)
        try store.insert(session)
        var mine = try #require(try store.load(session.id, now: 1))
        _ = try #require(try other.load(session.id, now: 1))
        for round in 0..<5 {
            var theirs = try #require(try other.load(session.id, now: 2))
            theirs.state.selectedTabID = "tab\(round)"
            _ = try #require(try other.update(theirs))
            mine = try #require(try store.load(session.id, now: 2))
            #expect(mine.state.selectedTabID == "tab\(round)")
            mine.language = "l\(round)"
            _ = try #require(try store.update(mine))
            #expect(try other.load(session.id, now: 2)?.language == "l\(round)")
        }
        // A stale cached copy cannot win a write: compare-and-set refuses it.
        var stale = try #require(try store.load(session.id, now: 3))
        var fresh = try #require(try other.load(session.id, now: 3))
        fresh.language = "fresh"
        _ = try #require(try other.update(fresh))
        stale.language = "stale"
        #expect(try store.update(stale) == nil)
        #expect(try store.load(session.id, now: 3)?.language == "fresh")
        // An optimistic load may hand out the stale copy, but isCurrent catches it
        // and drops it, and the next load is fresh.
        let current = try #require(try other.load(session.id, now: 3))
        var newer = current
        newer.language = "newer"
        _ = try #require(try other.update(newer))
        let optimistic = try #require(try store.loadOptimistically(session.id, now: 3))
        #expect(optimistic.language == "fresh")
        #expect(try store.isCurrent(optimistic) == false)
        let reloaded = try #require(try store.loadOptimistically(session.id, now: 3))
        #expect(reloaded.language == "newer")
        #expect(try store.isCurrent(reloaded))
        // Deleted by the other instance: gone here too.
        try other.delete(session.id)
        #expect(try store.load(session.id, now: 3) == nil)
    }

    @Test("the TTL never reaches past the absolute end of the session")
    func timeToLiveCapped() throws {
        let store = RedisSessionStore(client: store.client, lifetime: SessionLifetime(idle: 1_000, absolute: 2_000))
        let session = Session.new(now: 0)
        try store.insert(session)
        #expect(try store.load(session.id, now: 900) != nil)
        #expect(try store.load(session.id, now: 1_500) != nil)
        let seconds = try RedisTestHelpers.timeToLive(store, session.id)
        #expect((499...500).contains(seconds))
    }

    @Test("idle expiry: a session unused longer than the idle time is gone, and deleted")
    func idleExpiry() throws {
        let store = RedisSessionStore(client: store.client, lifetime: SessionLifetime(idle: 100, absolute: 10_000))
        let session = Session.new(now: 0)
        try store.insert(session)
        #expect(try store.load(session.id, now: 100) != nil)  // exactly at the limit, and a touch
        #expect(try store.load(session.id, now: 200) != nil)  // 100 after the touch
        #expect(try store.load(session.id, now: 301) == nil)  // 101 idle
        #expect(try store.client.command(["EXISTS", store.key(for: session.id)]) == .integer(0))
        #expect(try store.load(session.id, now: 0) == nil, "and stays gone")
    }

    @Test("absolute expiry: even a busy session ends")
    func absoluteExpiry() throws {
        let store = RedisSessionStore(client: store.client, lifetime: SessionLifetime(idle: 100, absolute: 1_000))
        let session = Session.new(now: 0)
        try store.insert(session)
        for now in stride(from: Int64(50), through: 1_000, by: 50) {
            #expect(try store.load(session.id, now: now) != nil, "at \(now)")
        }
        #expect(try store.load(session.id, now: 1_001) == nil)
        #expect(try store.client.command(["EXISTS", store.key(for: session.id)]) == .integer(0))
    }

    @Test("absolute expiry is enforced from the session's own creation time as well")
    func absoluteFromData() throws {
        let store = RedisSessionStore(client: store.client, lifetime: SessionLifetime(idle: 100, absolute: 1_000))
        let session = Session.new(now: 0)
        try store.insert(session)
        // The hash's `created` field says young; the session itself says old.
        _ = try store.client.command(["HSET", store.key(for: session.id), "created", "900"])
        #expect(try store.load(session.id, now: 90) != nil)
        #expect(try store.load(session.id, now: 180) != nil)
        let old = Session(
            id: session.id, csrfToken: session.csrfToken, state: session.state, language: nil, created: -5_000,
            lastSeen: 180, revision: 0)
        _ = try store.client.command([
            Array("HSET".utf8), Array(store.key(for: session.id).utf8), Array("data".utf8), SessionCodec.encode(old),
        ])
        #expect(try store.load(session.id, now: 200) == nil)
    }

    @Test("update with the current revision stores the change and bumps the revision")
    func updateSucceeds() throws {
        let session = Session.new(now: 0)
        try store.insert(session)
        var copy = try #require(try store.load(session.id, now: 1))
        copy.state.selectedTabID = "video"
        copy.language = "ja"
        let stored = try #require(try store.update(copy))
        #expect(stored.revision == 1)
        #expect(stored.state.selectedTabID == "video")
        let reloaded = try #require(try store.load(session.id, now: 1))
        #expect(reloaded == stored)

        var next = stored
        next.language = "ko"
        #expect(try #require(try store.update(next)).revision == 2)
        #expect(try store.load(session.id, now: 2)?.language == "ko")
    }

    @Test("a stale revision is refused and changes nothing")
    func updateConflict() throws {
        let session = RedisTestHelpers.richSession(now: 0)
        try store.insert(session)
        var first = try #require(try store.load(session.id, now: 0))
        var second = first  // another instance that read the same revision
        first.state.selectedTabID = "home"
        second.state.selectedTabID = "video"
        second.language = "de"
        #expect(try store.update(first) != nil)
        // Field by field: a hash stored as a hash table lists its fields in no set order.
        func fields() throws -> [[UInt8]: [UInt8]] {
            let flat = try #require(try store.client.command(["HGETALL", store.key(for: session.id)]).array)
            return Dictionary(
                uniqueKeysWithValues: stride(from: 0, to: flat.count - 1, by: 2).map {
                    (flat[$0].bytes ?? [], flat[$0 + 1].bytes ?? [])
                })
        }
        let before = try fields()
        #expect(try store.update(second) == nil)
        #expect(try fields() == before, "not a byte changed")
        let current = try #require(try store.load(session.id, now: 0))
        #expect(current.state.selectedTabID == "home")
        #expect(current.language == "fr-CA")
        #expect(current.revision == 1)

        var future = current
        future.revision += 5
        future.language = "xx"
        #expect(try store.update(future) == nil)
        #expect(try store.load(session.id, now: 0)?.language == "fr-CA")
    }

    @Test("update of an unknown session is refused and does not create it")
    func updateMissing() throws {
        let stranger = Session.new(now: 0)
        #expect(try store.update(stranger) == nil)
        #expect(try store.client.command(["EXISTS", store.key(for: stranger.id)]) == .integer(0))
    }

    @Test("entries that are not readable sessions load as nil, without a crash")
    func garbage() throws {
        let cases: [[String]] = [
            ["HSET", "KEY", "rev", "0", "data", "garbage", "created", "0", "seen", "0"],
            ["HSET", "KEY", "rev", "0", "data", "{\"format\":99}", "created", "0", "seen", "0"],
            ["HSET", "KEY", "rev", "zero", "data", "{}", "created", "0", "seen", "0"],
            ["HSET", "KEY", "rev", "0", "data", "{}"],
            ["HSET", "KEY", "rev", "0", "created", "0", "seen", "0"],
            ["SET", "KEY", "a string, not a hash"],
            ["RPUSH", "KEY", "a", "list"],
        ]
        for command in cases {
            let id = SessionID.generate()
            let key = store.key(for: id)
            _ = try store.client.command(command.map { $0 == "KEY" ? key : $0 })
            #expect(try store.load(id, now: 0) == nil, "\(command)")
            #expect(try store.client.command(["EXISTS", key]) == .integer(1), "left in place: \(command)")
        }
        // An update does not overwrite a key that is not a session hash.
        let notAHash = Session.new(now: 0)
        _ = try store.client.command(["SET", store.key(for: notAHash.id), "something else"])
        #expect(try store.update(notAHash) == nil)
        #expect(
            try store.client.command(["GET", store.key(for: notAHash.id)]) == .bulkString(Array("something else".utf8)))

        // Binary garbage too.
        let id = SessionID.generate()
        _ = try store.client.command([
            Array("HSET".utf8), Array(store.key(for: id).utf8), Array("rev".utf8), Array("0".utf8),
            Array("data".utf8), [0, 0xFF, 0xFE, 0x7B, 0x00], Array("created".utf8), Array("0".utf8),
            Array("seen".utf8), Array("0".utf8),
        ])
        #expect(try store.load(id, now: 0) == nil)
    }

    @Test("the key prefix keeps stores apart")
    func keyPrefix() throws {
        let other = RedisSessionStore(client: store.client, keyPrefix: "otherapp:")
        let session = Session.new(now: 0)
        try other.insert(session)
        #expect(store.key(for: session.id) == "tabserver:session:" + session.id.text)
        #expect(other.key(for: session.id) == "otherapp:" + session.id.text)
        #expect(try store.client.command(["EXISTS", "otherapp:" + session.id.text]) == .integer(1))
        #expect(try store.load(session.id, now: 0) == nil)
        #expect(try other.load(session.id, now: 0) != nil)
    }

    @Test("the database in the URL is used")
    func database() throws {
        let inDatabase3 = try RedisSessionStore(url: "redis://127.0.0.1:\(redis.port)/3")
        let session = Session.new(now: 0)
        try inDatabase3.insert(session)
        #expect(try inDatabase3.load(session.id, now: 0) != nil)
        #expect(try store.load(session.id, now: 0) == nil, "database 0 does not have it")
        let key = store.key(for: session.id)
        #expect(try inDatabase3.client.command(["EXISTS", key]) == .integer(1))
    }

    @Test("sweep has nothing to do; readiness is a PING")
    func sweepAndReady() throws {
        try store.insert(Session.new(now: 0))
        #expect(try store.sweep(now: 10_000_000) == 0)
        #expect(store.checkReady())
    }

    @Test("it is usable through the SessionStore protocol")
    func throughProtocol() async throws {
        let store: any SessionStore = self.store
        let session = Session.new(now: 0)
        try await store.insert(session)
        #expect(try await store.load(session.id, now: 0)?.id == session.id)
        try await store.delete(session.id)
        #expect(try await store.load(session.id, now: 0) == nil)
    }

    @Test("a malformed URL is refused with a reason")
    func malformedURL() {
        #expect(throws: SessionStoreError.self) { try RedisSessionStore(url: "http://127.0.0.1:6379") }
        do {
            _ = try RedisSessionStore(url: "redis://host:99999")
            Issue.record("accepted port 99999")
        } catch {
            #expect(error.reason.contains("port"))
            #expect(error.reason.contains("redis://host:99999"))
        }
    }
}
