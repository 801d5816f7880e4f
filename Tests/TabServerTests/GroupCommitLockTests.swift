// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServer
import TabServerCore
import TabServerSessions
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("A visitor's next request does not wait for the last one's group commit, and each answer waits for its own")
struct GroupCommitLockTests {
    /// The memory store, but committing in groups that the test lets go of by hand: while
    /// `hold()` is on, every write is accepted at once and made durable only at `release()`.
    final class HeldCommits: SessionStore, EngineSessionStore {
        private let base: MemorySessionStore
        private struct Held {
            var holding = false
            var ids: Set<SessionID> = []
            var waiting: [@Sendable (SessionStoreError?) -> Void] = []
        }
        private let held = Mutex(Held())
        /// Writes accepted so far.
        let updates = Atomic<Int>(0)

        init(_ base: MemorySessionStore) { self.base = base }

        func hold() { held.withLock { $0.holding = true } }

        /// Makes every write so far durable and answers whoever waits for them.
        func release() {
            let waiting = held.withLock { held in
                defer { held = Held() }
                return held.waiting
            }
            for done in waiting { done(nil) }
        }

        /// Answers waiting for their writes.
        var waiters: Int { held.withLock { $0.waiting.count } }

        func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? { base.load(id, now: now) }
        func insert(_ session: Session) throws(SessionStoreError) { base.insert(session) }
        func update(_ session: Session) throws(SessionStoreError) -> Session? {
            let stored = base.update(session)
            if stored != nil {
                updates.add(1, ordering: .relaxed)
                held.withLock { if $0.holding { $0.ids.insert(session.id) } }
            }
            return stored
        }
        func delete(_ id: SessionID) throws(SessionStoreError) { base.delete(id) }
        func sweep(now: Int64) throws(SessionStoreError) -> Int { base.sweep(now: now) }
        func checkReady() -> Bool { base.checkReady() }
        func loadOptimistically(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
            try base.loadOptimistically(id, now: now)
        }
        func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool { try base.isCurrent(session) }
        var insertsAtOnce: Bool { true }
        var commitsInGroups: Bool { true }
        func awaitsCommit(_ id: SessionID) -> Bool { held.withLock { $0.ids.contains(id) } }
        func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? { nil }
        func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool {
            held.withLock { held in
                guard ids.contains(where: held.ids.contains) else { return false }
                held.waiting.append(done)
                return true
            }
        }
    }

    @Test("two posts of one visitor: the second is written while the first waits for its commit; both answer after it")
    func secondPostWhileFirstCommits() throws {
        // Over sockets, on the engine's own threads, and waited for from this thread: the
        // suite's other tests may hold every thread of the shared task pool meanwhile.
        let store = HeldCommits(MemorySessionStore(capacity: 100, lifetime: SessionLifetime()))
        let app = try buildApplication(
            sevenTabConfiguration(), content: DemoCatalog(), hooks: demoHooks(), sessionStore: store, log: quietLog)
        let server = try app.start()
        defer { server.shutdown() }
        let visitor = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 60))
        #expect(visitor.send("GET /tabs/movies HTTP/1.1\r\nHost: t\r\n\r\n"))
        let page = try #require(visitor.readResponse())
        let token = try #require(page.csrfToken)
        let cookie = try #require(page.headers["set-cookie"]?.split(separator: ";").first)
        store.hold()
        let posted = store.updates.load(ordering: .relaxed)
        func post(_ tab: String) -> RawHTTPConnection? {
            let body = "csrf=\(token)&tab=\(tab)"
            let connection = RawHTTPConnection(port: server.port, timeoutSeconds: 60)
            _ = connection?.send(
                "POST /select HTTP/1.1\r\nHost: t\r\nCookie: \(cookie)\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            return connection
        }
        let first = try #require(post("music"))
        #expect(waitUntil(.seconds(60)) { store.waiters == 1 }, "the first post waits for its commit")
        let second = try #require(post("tv"))
        // Holding the visitor's lock through the commit, the second post could not even be
        // written until the first's group was durable.
        #expect(
            waitUntil(.seconds(60)) { store.updates.load(ordering: .relaxed) == posted + 2 },
            "the second post was written while the first waited")
        #expect(waitUntil(.seconds(60)) { store.waiters == 2 })
        store.release()
        #expect(first.readResponse()?.status == 303)
        #expect(second.readResponse()?.status == 303)
        // The later post's choice stands.
        #expect(visitor.send("GET / HTTP/1.1\r\nHost: t\r\nCookie: \(cookie)\r\n\r\n"))
        #expect(visitor.readResponse()?.location == "/tabs/tv")
    }
}
