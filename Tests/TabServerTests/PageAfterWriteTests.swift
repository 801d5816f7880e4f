// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand
@testable import TabServerSQLiteSessions
@testable import TabServerSessions

/// A visit that selects another tab writes the session, and its page is the
/// page of the revision it writes. It is kept for that revision once the write is stored
/// and durable, so the next visit to it is a look-up, not a render. Never before: a
/// write that fails is undone, and its revision may then be made by another write.
@Suite("Pages kept for the revision their visit writes")
struct PageAfterWriteTests {
    func app(_ configure: (inout AppConfiguration) -> Void = { _ in }) throws -> Application {
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        configure(&configuration)
        return try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
    }

    func hits(_ client: TestClient) async -> Int {
        let name = "tabserver_page_cache_hits_total"
        for line in await client.get("/metrics").body.split(separator: "\n") where line.hasPrefix(name + " ") {
            if let count = Int(line.dropFirst(name.count + 1)) { return count }
        }
        Issue.record("/metrics has no \(name) count")  // so two missing counts never compare equal
        return -1
    }

    func selected(_ app: Application, _ client: TestClient) throws -> String? {
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        return try app.engineStore.load(id, now: Int64(Date().timeIntervalSince1970))?.state.selectedTabID
    }

    /// A visitor on music, then a visit to movies (a write) and one more (a hit).
    func visitAndReturn(_ app: Application) async throws {
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        _ = await client.get("/tabs/music")
        let visit = await client.get("/tabs/movies")
        #expect(visit.status == 200)
        #expect(try selected(app, client) == "movies")
        let before = await hits(client)
        let again = await client.get("/tabs/movies")
        await #expect(hits(client) == before + 1, "the page the visit wrote was kept")
        let same = again.bodyBytes == visit.bodyBytes
        #expect(same, "the kept page is the page")
        #expect(again.headers["etag"] != nil && again.headers["etag"] == visit.headers["etag"])
        #expect(again.tags(containing: "aria-current=\"page\"").contains { $0.contains("movies") })
        // The kept page goes when the session changes again: a tap elsewhere, then back.
        let token = try #require(again.csrfToken)
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
        let tv = await client.get("/tabs/tv")
        #expect(tv.tags(containing: "aria-current=\"page\"").contains { $0.contains("tv") })
        let back = await client.get("/tabs/movies")
        #expect(try selected(app, client) == "movies", "a visit after a change writes again")
        let backSame = back.bodyBytes == visit.bodyBytes
        #expect(backSame, "the same state: the same page")
    }

    @Test("memory store: the next visit is a hit, the same bytes and ETag, and the visit was written")
    func memoryStore() async throws {
        try await visitAndReturn(try app())
    }

    @Test("SQLite file: kept once the group commit is durable")
    func sqliteStore() async throws {
        let path = TestFixtures.temporaryDirectory("after-write") + "/sessions.sqlite"
        try await visitAndReturn(try app { $0.sessions = .sqlite(path: path) })
    }

    @Test("a write that loses to another is run again; the page kept is the retry's, under its revision")
    func conflictRetries() async throws {
        let store = InterferingSessionStore(
            MemorySessionStore(capacity: 100, lifetime: SessionLifetime()), interferences: 0)
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        let app = try buildApplication(configuration, content: DemoCatalog(), sessionStore: store, log: quietLog)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        store.arm(1)
        let visit = await client.get("/tabs/movies")
        #expect(store.conflicts.load(ordering: .relaxed) == 1)
        let before = await hits(client)
        let again = await client.get("/tabs/movies")
        await #expect(hits(client) == before + 1)
        let same = again.bodyBytes == visit.bodyBytes
        #expect(same)
        #expect(try selected(app, client) == "movies")
    }

    @Test("a write that fails keeps no page: the visit after it writes again instead of hitting")
    func failedWriteKeepsNothing() async throws {
        let path = TestFixtures.temporaryDirectory("after-write-fail") + "/sessions.sqlite"
        let app = try app { $0.sessions = .sqlite(path: path) }
        let store = try #require(app.store as? SQLiteSessionStore)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        _ = await client.get("/tabs/music")
        store.setQueryOnly(true)
        await #expect(client.get("/tabs/movies").status == 503, "the write failed and was undone")
        store.setQueryOnly(false)
        #expect(try selected(app, client) == "music")
        // Another write makes the revision the failed one would have made.
        await #expect(client.get("/tabs/tv").status == 200)
        #expect(try selected(app, client) == "tv")
        let before = await hits(client)
        let movies = await client.get("/tabs/movies")
        #expect(movies.tags(containing: "aria-current=\"page\"").contains { $0.contains("movies") })
        await #expect(hits(client) == before, "not the failed visit's page")
        #expect(try selected(app, client) == "movies", "the visit was written")
    }

    @Test("a visit to a page with a notice, a query or a prefetch keeps nothing")
    func notKept() async throws {
        let app = try app()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        _ = await client.get("/tabs/movies?x=1")
        let prefetch = [("Sec-Purpose", "prefetch")]
        _ = await client.get("/tabs/tv", headers: prefetch)
        let before = await hits(client)
        _ = await client.get("/tabs/movies?x=1")
        _ = await client.get("/tabs/tv", headers: prefetch)
        await #expect(hits(client) == before)
    }
}
