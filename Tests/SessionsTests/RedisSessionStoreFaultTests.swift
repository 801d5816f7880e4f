// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerRedis
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// Redis going away and coming back, with the same store object throughout.
/// Serialized: the timings should not compete with each other for the 2 cores.
@Suite("RedisSessionStore when Redis fails", .serialized)
struct RedisSessionStoreFaultTests {
    let redis: RedisServer
    let store: RedisSessionStore

    init() throws {
        redis = try RedisServer()
        store = try RedisSessionStore(url: redis.url)
    }

    /// Runs `body`, expecting a `SessionStoreError`; returns how long it took.
    private func timeFailure(_ what: String, _ body: () throws(SessionStoreError) -> Void) -> Duration {
        let start = ContinuousClock.now
        do {
            try body()
            Issue.record("\(what) succeeded with Redis down")
        } catch {
            #expect(error.reason.contains("127.0.0.1:\(redis.port)"), "\(what): \(error.reason)")
        }
        return ContinuousClock.now - start
    }

    @Test("stopped: calls fail within a second with SessionStoreError; started: they succeed again by themselves")
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
        for (name, elapsed) in [
            ("load", load), ("update", update), ("insert", insert), ("delete", delete),
            ("checkReady", readyTime),
        ] {
            #expect(elapsed < .milliseconds(1_500), "\(name) took \(elapsed)")
        }
        print("Redis down: load \(load), update \(update), insert \(insert), checkReady \(readyTime)")

        // Keep calling while it is down, as the app would; every call stays fast.
        for _ in 0..<20 {
            let elapsed = timeFailure("load while down") { () throws(SessionStoreError) in
                _ = try store.load(session.id, now: 1)
            }
            #expect(elapsed < .milliseconds(1_500))
            usleep(50_000)
        }

        try redis.start()
        let restarted = ContinuousClock.now
        waitUntil(.seconds(10), every: .milliseconds(20)) { store.checkReady() }
        let recovery = ContinuousClock.now - restarted
        #expect(store.checkReady(), "no recovery within 10 s")
        #expect(recovery < .seconds(3), "recovery took \(recovery)")
        print("Redis back: ready again after \(recovery)")

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
        let load = timeFailure("load") { () throws(SessionStoreError) in _ = try store.load(session.id, now: 1) }
        #expect(load < .milliseconds(1_500), "load took \(load)")
        #expect(load >= .milliseconds(400), "it waited for the timeout: \(load)")
        let (ready, readyTime) = RedisTestHelpers.measure { store.checkReady() }
        #expect(!ready)
        #expect(readyTime < .milliseconds(1_500), "checkReady took \(readyTime)")
        print("Redis hung: load failed after \(load)")

        kill(pid, SIGCONT)
        waitUntil(.seconds(10), every: .milliseconds(20)) { store.checkReady() }
        #expect(store.checkReady())
        #expect(try store.load(session.id, now: 2) != nil, "the data survived the pause")
    }
}
