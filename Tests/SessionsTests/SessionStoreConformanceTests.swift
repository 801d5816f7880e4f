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

    /// The lifetimes the cases count with, in the caller's seconds (`now`). Redis also
    /// gives each key the idle lifetime as its TTL in real seconds (a tenth of it on
    /// probation): its lifetimes are long enough that no stall of a loaded machine
    /// between two calls lets a key expire under a case.
    static func lifetime(_ kind: Kind) -> SessionLifetime {
        kind == .redis
            ? SessionLifetime(idle: 100_000, absolute: 1_000_000) : SessionLifetime(idle: 100, absolute: 1_000)
    }

    /// A store of `kind`, with what must live as long as it (the Redis server).
    struct Opened {
        let store: any SessionStore
        let server: RedisServer?
    }

    func makeStore(_ kind: Kind) throws -> Opened {
        switch kind {
        case .memory: Opened(store: MemorySessionStore(capacity: 1_000, lifetime: Self.lifetime(kind)), server: nil)
        case .sqlite:
            Opened(
                store: try SQLiteSessionStore(
                    path: TestFixtures.temporaryDirectory("conformance") + "/sessions.sqlite",
                    lifetime: Self.lifetime(kind)),
                server: nil)
        case .redis:
            try {
                let server = try RedisServer()
                return Opened(
                    store: try RedisSessionStore(url: server.url, lifetime: Self.lifetime(kind)), server: server)
            }()
        case .folder:
            Opened(
                store: try FolderSessionStore(
                    folder: TestFixtures.temporaryDirectory("conformance") + "/sessions", lifetime: Self.lifetime(kind)),
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
        // Times in units of the idle lifetime: the old session is idle for two of them at
        // the end, the fresh one for half of one.
        let idle = Self.lifetime(kind).idle
        let (start, end) = (Int64(1_000_000), Int64(1_000_000) + 2 * idle)
        let old = Session.new(now: start)
        let fresh = Session.new(now: end - idle / 2)
        try await store.insert(old)
        try await store.insert(fresh)
        #expect(try await store.load(old.id, now: start + idle / 2) != nil, "within its idle time")
        // Redis expires its keys itself (the idle lifetime is each key's TTL): its sweep
        // has nothing to remove.
        #expect(try await store.sweep(now: end) == (kind == .redis ? 0 : 1), "idle for 1.5 idle lifetimes")
        #expect(try await store.load(old.id, now: end) == nil)
        #expect(try await store.load(fresh.id, now: end) != nil, "the fresh one stays")
        #expect(try await store.sweep(now: end) == 0, "nothing left to sweep")
    }
}
