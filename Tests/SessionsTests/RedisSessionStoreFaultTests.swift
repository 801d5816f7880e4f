// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// Redis going away and coming back, with the same store object throughout. The timings
/// are printed, not asserted (a loaded machine makes anything slower): each call ends in an
/// error that names why (refused, failing fast, no reply in time) rather than waiting.
@Suite("RedisSessionStore when Redis fails", .serialized)
struct RedisSessionStoreFaultTests {
    let redis: RedisServer
    let store: RedisSessionStore

    init() throws {
        redis = try RedisServer()
        store = try RedisSessionStore(url: redis.url)
    }

    /// Runs `body`, expecting a `SessionStoreError` naming the server; returns its reason and
    /// how long it took.
    private func timeFailure(_ what: String, _ body: () throws(SessionStoreError) -> Void) -> (String, Duration) {
        let start = ContinuousClock.now
        do {
            try body()
            Issue.record("\(what) succeeded with Redis down")
            return ("", ContinuousClock.now - start)
        } catch {
            #expect(error.reason.contains("127.0.0.1:\(redis.port)"), "\(what): \(error.reason)")
            return (error.reason, ContinuousClock.now - start)
        }
    }

    @Test("stopped: calls fail with SessionStoreError, then without trying Redis; started: they succeed again")
    func stopAndStart() throws {
        let session = Session.new(now: 0)
        try store.insert(session)
        var copy = try #require(try store.load(session.id, now: 0))
        #expect(store.checkReady())

        redis.stop()
        let load = timeFailure("load") { () throws(SessionStoreError) in _ = try store.load(session.id, now: 1) }
        let update = timeFailure("update") { () throws(SessionStoreError) in _ = try store.update(copy) }
        let insert = timeFailure("insert") { () throws(SessionStoreError) in try store.insert(Session.new(now: 1)) }
        let delete = timeFailure("delete") { () throws(SessionStoreError) in try store.delete(session.id) }
        let (ready, readyTime) = RedisTestHelpers.measure { store.checkReady() }
        #expect(!ready)
        print(
            "Redis down: load \(load.1), update \(update.1), insert \(insert.1), delete \(delete.1), "
                + "checkReady \(readyTime)")

        // Keep calling while it is down, as the app would: every call fails at once, without
        // trying Redis, until the background probe reaches it.
        for _ in 0..<20 {
            let (reason, _) = timeFailure("load while down") { () throws(SessionStoreError) in
                _ = try store.load(session.id, now: 1)
            }
            #expect(reason.contains("failing fast"), "\(reason)")
        }

        try redis.start()
        let restarted = ContinuousClock.now
        #expect(waitUntil(.seconds(10), every: .milliseconds(20)) { store.checkReady() }, "ready again by itself")
        print("Redis back: ready again after \(ContinuousClock.now - restarted)")

        // The restarted server has no data (no persistence), but the store works again.
        #expect(try store.load(session.id, now: 2) == nil)
        let fresh = Session.new(now: 2)
        try store.insert(fresh)
        copy = try #require(try store.load(fresh.id, now: 2))
        copy.language = "sv"
        #expect(try store.update(copy)?.revision == 1)
    }

    @Test("a restart between two calls costs no failure: dead pooled connections are noticed")
    func quickRestart() throws {
        let session = Session.new(now: 0)
        try store.insert(session)
        #expect(try store.load(session.id, now: 0) != nil)
        redis.stop()
        try redis.start()
        #expect(try store.load(session.id, now: 0) == nil)  // empty after the restart, but no error
        try store.insert(session)
        #expect(try store.load(session.id, now: 0) != nil)
    }

    @Test("a hung Redis: calls time out within the command timeout, then recover")
    func hung() throws {
        let session = Session.new(now: 0)
        try store.insert(session)
        let pid = try #require(redis.processIdentifier)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        // The call ends with the command timeout, not Redis's answer (which never comes); a
        // lower bound only, since a loaded machine can make it later, never sooner.
        let (reason, load) = timeFailure("load") { () throws(SessionStoreError) in
            _ = try store.load(session.id, now: 1)
        }
        #expect(reason.contains("no reply within"), "\(reason)")
        #expect(load >= .milliseconds(400), "it waited for the timeout: \(load)")
        let (ready, readyTime) = RedisTestHelpers.measure { store.checkReady() }
        #expect(!ready)
        print("Redis hung: load failed after \(load), checkReady after \(readyTime)")

        kill(pid, SIGCONT)
        waitUntil(.seconds(10), every: .milliseconds(20)) { store.checkReady() }
        #expect(store.checkReady())
        #expect(try store.load(session.id, now: 2) != nil, "the data survived the pause")
    }
}
