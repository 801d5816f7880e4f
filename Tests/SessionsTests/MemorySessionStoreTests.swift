// SPDX-License-Identifier: Apache-2.0
import TabServerSessions
import TabServerTabBar
import Testing

@Suite("MemorySessionStore")
struct MemorySessionStoreTests {
    @Test("an inserted session loads back with its state")
    func insertLoad() throws {
        let store = MemorySessionStore()
        var session = Session.new(now: 100)
        session.state.selectedTabID = "music"
        session.language = "fr"
        store.insert(session)
        #expect(store.count == 1)
        let loaded = try #require(store.load(session.id, now: 100))
        #expect(loaded == session)
        #expect(loaded.csrfToken == session.csrfToken)
        #expect(loaded.state.selectedTabID == "music")
    }

    @Test("an unknown id loads as nil")
    func unknown() {
        let store = MemorySessionStore()
        store.insert(Session.new(now: 0))
        #expect(store.load(SessionID.generate(), now: 0) == nil)
        #expect(store.count == 1)
    }

    @Test("loading records the time of the request")
    func loadTouches() throws {
        let store = MemorySessionStore()
        let session = Session.new(now: 100)
        store.insert(session)
        #expect(try #require(store.load(session.id, now: 150)).lastSeen == 150)
        #expect(try #require(store.load(session.id, now: 150)).lastSeen == 150)
        #expect(try #require(store.load(session.id, now: 151)).created == 100)
    }

    @Test("idle expiry: a session unused longer than the idle time is gone")
    func idleExpiry() throws {
        let store = MemorySessionStore(lifetime: SessionLifetime(idle: 100, absolute: 10_000))
        let session = Session.new(now: 0)
        store.insert(session)
        #expect(store.load(session.id, now: 100) != nil)  // exactly at the limit, and a touch
        #expect(store.load(session.id, now: 200) != nil)  // 100 after the touch
        #expect(store.load(session.id, now: 301) == nil)  // 101 idle
        #expect(store.count == 0, "an expired session is removed when found")
        #expect(store.load(session.id, now: 0) == nil, "and stays gone")
    }

    @Test("absolute expiry: even a busy session ends")
    func absoluteExpiry() {
        let store = MemorySessionStore(lifetime: SessionLifetime(idle: 100, absolute: 1_000))
        let session = Session.new(now: 0)
        store.insert(session)
        for now in stride(from: Int64(50), through: 1_000, by: 50) {
            #expect(store.load(session.id, now: now) != nil, "at \(now)")
        }
        #expect(store.load(session.id, now: 1_001) == nil)
        #expect(store.count == 0)
    }

    @Test("over capacity, the least recently used go and the recently used stay")
    func lruSmall() {
        let store = MemorySessionStore(capacity: 4)
        let sessions = (0..<4).map { Session.new(now: Int64($0)) }
        for session in sessions { store.insert(session) }
        // Use the two oldest again: now the third and fourth are the least recently used.
        #expect(store.load(sessions[0].id, now: 10) != nil)
        #expect(store.load(sessions[1].id, now: 11) != nil)
        let newer = [Session.new(now: 12), Session.new(now: 13)]
        for session in newer { store.insert(session) }
        #expect(store.count <= 4)
        for survivor in [sessions[0], sessions[1], newer[0], newer[1]] {
            #expect(store.load(survivor.id, now: 20) != nil)
        }
        #expect(store.load(sessions[2].id, now: 20) == nil)
        #expect(store.load(sessions[3].id, now: 20) == nil)
    }

    @Test("LRU at a larger capacity: touched and newest survive, only untouched old ones go")
    func lruLarge() {
        let capacity = 64
        let store = MemorySessionStore(capacity: capacity)
        let old = (0..<capacity).map { Session.new(now: Int64($0)) }
        for session in old { store.insert(session) }
        let touched = Set(old.indices.filter { $0 % 6 == 0 })
        for index in touched.sorted() { #expect(store.load(old[index].id, now: 1_000 + Int64(index)) != nil) }
        let newer = (0..<20).map { Session.new(now: 2_000 + Int64($0)) }
        for session in newer {
            store.insert(session)
            #expect(store.count <= capacity)
        }
        for index in touched { #expect(store.load(old[index].id, now: 3_000) != nil, "touched \(index)") }
        for session in newer { #expect(store.load(session.id, now: 3_000) != nil) }
        let untouchedSurvivors = old.indices.filter {
            !touched.contains($0) && store.load(old[$0].id, now: 3_000) != nil
        }
        #expect(untouchedSurvivors.count < capacity - touched.count, "some untouched ones were evicted")
        // Eviction goes oldest first: whatever untouched survived is newer than what went.
        if let firstSurvivor = untouchedSurvivors.first {
            let evicted = old.indices.filter { !touched.contains($0) && !untouchedSurvivors.contains($0) }
            #expect(evicted.allSatisfy { $0 < firstSurvivor })
        }
    }

    @Test("capacity 1 keeps just the newest")
    func capacityOne() {
        let store = MemorySessionStore(capacity: 1)
        let a = Session.new(now: 1)
        let b = Session.new(now: 2)
        store.insert(a)
        store.insert(b)
        #expect(store.count == 1)
        #expect(store.load(b.id, now: 3) != nil)
        #expect(store.load(a.id, now: 3) == nil)
    }

    @Test("update with the current revision stores the change and bumps the revision")
    func updateSucceeds() throws {
        let store = MemorySessionStore()
        let session = Session.new(now: 0)
        store.insert(session)
        var copy = try #require(store.load(session.id, now: 1))
        copy.state.selectedTabID = "video"
        copy.language = "ja"
        let stored = try #require(store.update(copy))
        #expect(stored.revision == session.revision + 1)
        #expect(stored.state.selectedTabID == "video")
        let reloaded = try #require(store.load(session.id, now: 1))
        #expect(reloaded.revision == session.revision + 1)
        #expect(reloaded.language == "ja")
        #expect(reloaded.state.selectedTabID == "video")

        // The returned value is good for the next update.
        var next = stored
        next.language = "ko"
        #expect(try #require(store.update(next)).revision == session.revision + 2)
    }

    @Test("a second update from the same old copy is refused and changes nothing")
    func updateConflict() throws {
        let store = MemorySessionStore()
        let session = Session.new(now: 0)
        store.insert(session)
        var first = try #require(store.load(session.id, now: 0))
        var second = first  // another request that read the same revision
        first.state.selectedTabID = "music"
        second.state.selectedTabID = "video"
        second.language = "de"
        #expect(store.update(first) != nil)
        #expect(store.update(second) == nil)
        let current = try #require(store.load(session.id, now: 0))
        #expect(current.state.selectedTabID == "music")
        #expect(current.language == nil)
        #expect(current.revision == session.revision + 1)

        // A copy from the future is refused too.
        var future = current
        future.revision += 5
        future.language = "xx"
        #expect(store.update(future) == nil)
        #expect(try #require(store.load(session.id, now: 0)).language == nil)
    }

    @Test("update of an unknown or deleted session is refused and does not create it")
    func updateMissing() {
        let store = MemorySessionStore()
        let stranger = Session.new(now: 0)
        #expect(store.update(stranger) == nil)
        #expect(store.count == 0)
        let session = Session.new(now: 0)
        store.insert(session)
        store.delete(session.id)
        #expect(store.update(session) == nil)
        #expect(store.load(session.id, now: 0) == nil)
    }

    @Test("delete removes one session; unknown ids are ignored")
    func delete() {
        let store = MemorySessionStore()
        let a = Session.new(now: 0)
        let b = Session.new(now: 0)
        store.insert(a)
        store.insert(b)
        store.delete(a.id)
        #expect(store.load(a.id, now: 0) == nil)
        #expect(store.load(b.id, now: 0) != nil)
        store.delete(SessionID.generate())
        store.delete(a.id)
        #expect(store.count == 1)
    }

    @Test("sweep removes the expired sessions and says how many")
    func sweep() {
        let store = MemorySessionStore(lifetime: SessionLifetime(idle: 100, absolute: 1_000))
        let idle = Session.new(now: 0)
        let old = Session.new(now: 0)
        let fresh = Session.new(now: 900)
        for session in [idle, old, fresh] { store.insert(session) }
        // Keep `old` in use so only its age can end it.
        for now in stride(from: Int64(90), through: 900, by: 90) { #expect(store.load(old.id, now: now) != nil) }
        #expect(store.sweep(now: 950) == 1)  // `idle`
        #expect(store.count == 2)
        #expect(store.sweep(now: 950) == 0)
        #expect(store.load(old.id, now: 1_000) != nil)
        #expect(store.load(fresh.id, now: 1_000) != nil)
        #expect(store.sweep(now: 1_001) == 1)  // `old`, by absolute lifetime
        #expect(store.load(old.id, now: 1_001) == nil)
        #expect(store.load(fresh.id, now: 1_001) != nil)
        #expect(store.sweep(now: 10_000) == 1)
        #expect(store.count == 0)
        #expect(store.sweep(now: 10_000) == 0)
    }

    @Test("the store is always ready")
    func ready() {
        #expect(MemorySessionStore().checkReady())
    }

    @Test("it is usable through the SessionStore protocol")
    func throughProtocol() async throws {
        let store: any SessionStore = MemorySessionStore()
        let session = Session.new(now: 0)
        try await store.insert(session)
        #expect(try await store.load(session.id, now: 0)?.id == session.id)
        try await store.delete(session.id)
        #expect(try await store.load(session.id, now: 0) == nil)
    }
}
