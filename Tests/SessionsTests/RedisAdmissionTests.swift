// SPDX-License-Identifier: Apache-2.0
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// The same flood against Redis capped in memory with `maxmemory-policy volatile-ttl`:
/// sessions on probation carry the short TTL, so Redis evicts them before any returning
/// visitor's, and users' records, which carry none, never.
@Suite("Redis admission: probationary sessions have a short TTL and go first under volatile-ttl")
struct RedisAdmissionTests {
    @Test("0 of 50 returning visitors and no user's record lost while Redis evicts thousands of one-shot sessions")
    func flood() throws {
        let redis = try RedisServer(arguments: ["--maxmemory", "4mb", "--maxmemory-policy", "volatile-ttl"])
        defer { redis.stop() }
        let client = try RedisClient(url: redis.url)
        let store = RedisSessionStore(client: client, lifetime: SessionLifetime(idle: 600, absolute: 86_400))
        #expect(store.probationTTL == 60)
        var record = Session.userRecord("ada", now: 1_000)
        record.state.order = ["b", "a"]
        try store.insert(record)
        var returning: [Session] = []
        for index in 0..<50 {
            var session = Session.new(now: 1_000)
            session.state.selectedTabID = "tab\(index)"
            try store.insert(session)
            #expect(try RedisTestHelpers.timeToLive(store, session.id) <= 60, "on probation: the short TTL")
            returning.append(try #require(try store.load(session.id, now: 1_000)))
            #expect(try RedisTestHelpers.timeToLive(store, session.id) > 500, "established: the idle timeout")
        }
        #expect(try RedisTestHelpers.timeToLive(store, record.id) == -1, "a user's record has no TTL")
        var evicted = 0
        var index = 0
        // Until Redis has evicted several times what it holds, the visitors coming back
        // every 2,000 one-shot sessions; bounded in case nothing is ever evicted.
        while evicted < 20_000 && index < 200_000 {
            // A one-shot session fails only when Redis is full of keys it may not evict,
            // which is what this test rules out: it is recorded, not thrown.
            try store.insert(Session.new(now: 1_000 + Int64(index / 2_000)))
            index += 1
            if index % 2_000 == 0 {
                for visitor in returning { _ = try store.load(visitor.id, now: 1_000 + Int64(index / 2_000)) }
                evicted = try Self.evictedKeys(client)
            }
        }
        #expect(evicted >= 20_000, "Redis evicted \(evicted) keys")
        var lost = 0
        for visitor in returning {
            if try store.load(visitor.id, now: 1_200)?.state.selectedTabID != visitor.state.selectedTabID { lost += 1 }
        }
        #expect(lost == 0)
        #expect(try store.load(record.id, now: 1_200)?.state.order == ["b", "a"])
        #expect(store.admission.promoted == 50)
    }

    /// `evicted_keys` from `INFO stats`.
    static func evictedKeys(_ client: RedisClient) throws -> Int {
        let info = try client.command(["INFO", "stats"]).string ?? ""
        for line in info.split(whereSeparator: \.isNewline) where line.hasPrefix("evicted_keys:") {
            return Int(line.dropFirst("evicted_keys:".count)) ?? 0
        }
        return 0
    }
}
