// SPDX-License-Identifier: Apache-2.0
import TabServerRedisSessions
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// The rules every session store keeps, asked through the public `SessionStore` protocol
/// alone: of the built-in stores (memory, SQLite, Redis on a real `redis-server`), and of a
/// store written in the tests as an app would write one (`FolderSessionStore`, a file per
/// session), which must pass exactly as they do.
@Suite("Session store conformance: the built-in stores and an app's own")
struct SessionStoreConformanceTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case memory, sqlite, redis, folder
        var testDescription: String { rawValue }
    }

    static let lifetime = SessionLifetime(idle: 100, absolute: 1_000)

    /// A store of `kind`, with what must live as long as it (the Redis server).
    struct Opened {
        let store: any SessionStore
        let server: RedisServer?
    }

    func makeStore(_ kind: Kind) throws -> Opened {
        switch kind {
        case .memory: Opened(store: MemorySessionStore(capacity: 1_000, lifetime: Self.lifetime), server: nil)
        case .sqlite:
            Opened(
                store: try SQLiteSessionStore(
                    path: TestFixtures.temporaryDirectory("conformance") + "/sessions.sqlite", lifetime: Self.lifetime),
                server: nil)
        case .redis:
            try {
                let server = try RedisServer()
                return Opened(store: try RedisSessionStore(url: server.url, lifetime: Self.lifetime), server: server)
            }()
        case .folder:
            Opened(
                store: try FolderSessionStore(
                    folder: TestFixtures.temporaryDirectory("conformance") + "/sessions", lifetime: Self.lifetime),
                server: nil)
        }
    }

    @Test("a session inserted loads back whole; an unknown or deleted one is nil", arguments: Kind.allCases)
    func roundTrip(_ kind: Kind) async throws {
        let opened = try makeStore(kind)
        let store = opened.store
        defer { withExtendedLifetime(opened) {} }
        var session = Session.new(now: 1_000)
        session.state.selectedTabID = "music"
        session.language = "fr-CA"
        try await store.insert(session)
        let loaded = try #require(try await store.load(session.id, now: 1_000))
        #expect(loaded == session)
        #expect(try await store.load(Session.new(now: 1_000).id, now: 1_000) == nil)
        try await store.delete(session.id)
        #expect(try await store.load(session.id, now: 1_000) == nil)
        try await store.delete(session.id)  // an unknown id is no error
        #expect(await store.checkReady())
    }

    @Test("update is a compare-and-set: the read revision wins once, a stale one is refused", arguments: Kind.allCases)
    func compareAndSet(_ kind: Kind) async throws {
        let opened = try makeStore(kind)
        let store = opened.store
        defer { withExtendedLifetime(opened) {} }
        let session = Session.new(now: 1_000)
        try await store.insert(session)
        let read = try #require(try await store.load(session.id, now: 1_000))
        var first = read
        first.state.selectedTabID = "movies"
        let stored = try #require(try await store.update(first))
        #expect(stored.revision == read.revision + 1)
        var stale = read
        stale.state.selectedTabID = "tv"
        #expect(try await store.update(stale) == nil, "a write over a revision read before another is refused")
        #expect(try await store.load(session.id, now: 1_000)?.state.selectedTabID == "movies")
        #expect(try await store.update(Session.new(now: 1_000)) == nil, "a session never stored is not written")
    }

    @Test("8 concurrent writers, 25 increments each, retrying lost races: none is lost", arguments: Kind.allCases)
    func concurrentWriters(_ kind: Kind) async throws {
        let opened = try makeStore(kind)
        let store = opened.store
        defer { withExtendedLifetime(opened) {} }
        var session = Session.new(now: 1_000)
        session.state.selectedTabID = "0"
        try await store.insert(session)
        let id = session.id
        let lost = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var lost = 0
                    for _ in 0..<25 {
                        // Read, change, write; on a lost race read again (at most 1,000 times).
                        for _ in 0..<1_000 {
                            guard var current = try? await store.load(id, now: 1_000) else { break }
                            current.state.selectedTabID = String((Int(current.state.selectedTabID ?? "") ?? -1_000) + 1)
                            if (try? await store.update(current)) ?? nil != nil { break }
                            lost += 1
                        }
                    }
                    return lost
                }
            }
            return await group.reduce(0, +)
        }
        let final = try #require(try await store.load(session.id, now: 1_000))
        #expect(final.state.selectedTabID == "200", "\(final.state.selectedTabID ?? "none") of 200 increments kept")
        #expect(final.revision == session.revision + 200)
        print("conformance \(kind.rawValue): 200 increments from 8 writers, \(lost) races lost")
    }

    @Test("a session idle past its lifetime loads as nil and is swept; the others stay", arguments: Kind.allCases)
    func expiry(_ kind: Kind) async throws {
        let opened = try makeStore(kind)
        let store = opened.store
        defer { withExtendedLifetime(opened) {} }
        let old = Session.new(now: 1_000)
        let fresh = Session.new(now: 1_150)
        try await store.insert(old)
        try await store.insert(fresh)
        #expect(try await store.load(old.id, now: 1_050) != nil, "within its idle time")
        // Redis expires its keys itself (the idle lifetime is each key's TTL): its sweep
        // has nothing to remove.
        #expect(try await store.sweep(now: 1_200) == (kind == .redis ? 0 : 1), "idle for at least 150 s, over its 100")
        #expect(try await store.load(old.id, now: 1_200) == nil)
        #expect(try await store.load(fresh.id, now: 1_200) != nil, "the fresh one stays")
        #expect(try await store.sweep(now: 1_200) == 0, "nothing left to sweep")
    }
}
