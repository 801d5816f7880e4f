// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerGzip
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerTesting
import Testing

@testable import TabServerCommand

/// A tab page seen again is answered from the cache of finished pages, and
/// Pages are gzip'd when accepted and revalidated with an ETag. A cached page
/// must never outlive what it shows: any write to the session, a change of the model, a
/// new hour's form token, another language or another encoding is another page.
@Suite("Finished pages: cached, compressed, revalidated, never stale")
struct PageAnswerTests {
    func metricsApp(clock: ManualClock? = nil) throws -> Application {
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        if let clock {
            return try buildApplication(configuration, content: DemoCatalog(), log: quietLog, clock: { clock.now })
        }
        return try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
    }

    /// A counter or gauge read from `/metrics`.
    func sample(_ client: TestClient, _ name: String) async -> Int {
        let body = await client.get("/metrics").body
        for line in body.split(separator: "\n") where line.hasPrefix(name + " ") {
            return Int(line.dropFirst(name.count + 1)) ?? -1
        }
        return -1
    }

    @Test("a reload of an unchanged page is the cached page: the same bytes and ETag; If-None-Match gets 304")
    func reloadIsCached() async throws {
        let app = try metricsApp()
        let client = TestClient(app.responder)
        let first = await client.get("/tabs/music")  // stores the session (music selected)
        #expect(first.headers["set-cookie"] != nil)
        let second = await client.get("/tabs/music")  // nothing changes: kept
        let hitsBefore = await sample(client, "tabserver_page_cache_hits_total")
        let third = await client.get("/tabs/music")
        await #expect(sample(client, "tabserver_page_cache_hits_total") == hitsBefore + 1)
        #expect(third.bodyBytes == second.bodyBytes)
        let etag = try #require(third.headers["etag"])
        #expect(etag == second.headers["etag"])
        #expect(third.headers["cache-control"] == "private, no-cache")
        #expect(third.headers["vary"] == "Accept-Encoding, Accept-Language, Cookie, Sec-CH-UA-Platform, User-Agent")
        #expect(third.headers["set-cookie"] == nil)
        let revalidated = await client.get("/tabs/music", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.bodyBytes.isEmpty)
        #expect(revalidated.headers["etag"] == etag)
        await #expect(client.get("/tabs/music", headers: [("If-None-Match", "\"other\"")]).status == 200)
        await #expect(sample(client, "tabserver_page_cache_entries") >= 1)
        await #expect(sample(client, "tabserver_page_cache_bytes") > second.bodyBytes.count)
    }

    @Test("every write shows at once: a tap, a language, a badge set for the visitor")
    func writesAreNeverStale() async throws {
        let app = try metricsApp()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        let cached = await client.get("/tabs/music")
        let token = try #require(cached.csrfToken)
        #expect(cached.language == "en")
        // A tap elsewhere and back: the page is rendered anew and shows music selected again.
        _ = await client.post("/select", form: [("csrf", token), ("tab", "movies")])
        let back = await client.get("/tabs/music")
        #expect(back.tags(containing: "aria-current=\"page\"").contains { $0.contains("music") })
        // The language.
        let german = await client.post("/language", form: [("csrf", token), ("lang", "de")])
        #expect(german.status == 303)
        await #expect(client.get("/tabs/music").language == "de")
        // A badge the app sets for this visitor alone, outside any request of theirs.
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        _ = await client.get("/tabs/music")
        #expect(try await app.setBadge(.badge(.count(7)), forTab: "tv", visitor: id))
        await #expect(client.get("/tabs/music").barBadges["tv"] == "7")
    }

    @Test("a change of the model (tabs reloaded) is another page")
    func modelChangeIsAnotherPage() async throws {
        let app = try metricsApp()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        let before = await client.get("/tabs/music")
        #expect(app.reloadTabs() == nil)
        let hits = await sample(client, "tabserver_page_cache_hits_total")
        let after = await client.get("/tabs/music")
        #expect(after.status == 200)
        await #expect(sample(client, "tabserver_page_cache_hits_total") == hits, "the new generation missed")
        #expect(after.bodyBytes == before.bodyBytes, "same tabs.json: the same page, rendered again")
    }

    @Test(
        "the cookieless first page is one page for every visitor of the hour, with no cookie; the next hour's differs")
    func cookielessPage() async throws {
        let clock = ManualClock(1_000_000_000)
        let app = try metricsApp(clock: clock)
        let one = TestClient(app.responder)
        let two = TestClient(app.responder)
        let first = await one.get("/tabs/featured")
        let hits = await sample(one, "tabserver_page_cache_hits_total")
        let second = await two.get("/tabs/featured")
        await #expect(sample(one, "tabserver_page_cache_hits_total") == hits + 1)
        #expect(first.bodyBytes == second.bodyBytes)
        #expect(first.headers["set-cookie"] == nil && second.headers["set-cookie"] == nil)
        #expect(one.cookies.isEmpty && two.cookies.isEmpty)
        // The form still works (the shared, signed token), and the tap makes a session.
        let token = try #require(second.csrfToken)
        let tapped = await two.post("/select", form: [("csrf", token), ("tab", "tv")])
        #expect(tapped.status == 303)
        #expect(tapped.headers["set-cookie"] != nil)
        // A page with a session is never the shared one.
        let own = await two.get("/tabs/featured")
        #expect(own.csrfToken != token)
        clock.advance(3_600)
        let nextHour = await one.get("/tabs/featured")
        #expect(nextHour.csrfToken != token)
        #expect(nextHour.headers["etag"] != first.headers["etag"])
    }

    @Test(
        "a cached page never outlives its session: visits keep it alive past the idle timeout; after a quiet spell longer than it, the visitor gets a new session, not the page",
        arguments: ["memory", "sqlite"])
    func idleTimeout(store: String) async throws {
        let clock = ManualClock(1_000_000_000)
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        configuration.sessionIdleTimeout = .seconds(600)
        if store == "sqlite" {
            configuration.sessions = .sqlite(path: TestFixtures.temporaryDirectory("idle-page") + "/sessions.sqlite")
        }
        let app = try buildApplication(configuration, content: DemoCatalog(), log: quietLog, clock: { clock.now })
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        let cookie = try #require(client.cookies["tabserver_session"])
        let page = await client.get("/tabs/music")
        let hits = await sample(client, "tabserver_page_cache_hits_total")
        let hit = await client.get("/tabs/music").bodyBytes == page.bodyBytes
        #expect(hit)
        await #expect(sample(client, "tabserver_page_cache_hits_total") == hits + 1)
        // Visits 500 s apart: each keeps the session alive (SQLite refreshes `last_seen`,
        // which a page answered from memory must not skip), 1,000 s after it was made.
        for _ in 0..<2 {
            clock.advance(500)
            let visit = await client.get("/tabs/music")
            #expect(visit.status == 200)
            #expect(visit.headers["set-cookie"] == nil)
            let same = visit.bodyBytes == page.bodyBytes
            #expect(same, "the session's own page")
        }
        #expect(client.cookies["tabserver_session"] == cookie)
        // Quiet for longer than the idle timeout: the session is gone, and so is its page.
        clock.advance(601)
        let after = await client.get("/tabs/music")
        #expect(after.status == 200)
        #expect(after.headers["set-cookie"] != nil)
        #expect(client.cookies["tabserver_session"] != cookie)
        #expect(after.csrfToken != page.csrfToken)
    }

    @Test("gzip when accepted: the same page packed, its own ETag, Vary; identity otherwise")
    func gzip() async throws {
        let app = try metricsApp()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        let plain = await client.get("/tabs/music")
        for _ in 0..<2 {  // rendered, then cached
            let packed = await client.get("/tabs/music", headers: [("Accept-Encoding", "gzip, deflate, br")])
            #expect(packed.headers["content-encoding"] == "gzip")
            #expect(
                packed.headers["vary"] == "Accept-Encoding, Accept-Language, Cookie, Sec-CH-UA-Platform, User-Agent")
            #expect(packed.bodyBytes.count < plain.bodyBytes.count / 2)
            #expect(try Gzip.decompress(packed.bodyBytes) == plain.bodyBytes)
            #expect(packed.headers["etag"] != nil && packed.headers["etag"] != plain.headers["etag"])
        }
        await #expect(
            client.get("/tabs/music", headers: [("Accept-Encoding", "gzip;q=0")]).headers["content-encoding"] == nil)
        // A page that is never cached (it shows a notice once) is packed as well.
        let token = try #require(plain.csrfToken)
        let refused = await client.post(
            "/select", form: [("csrf", token), ("tab", "purchased")], headers: [("Accept-Encoding", "gzip")])
        #expect(refused.status == 303)
        let question = await client.get(try #require(refused.location), headers: [("Accept-Encoding", "gzip")])
        #expect(question.headers["content-encoding"] == "gzip")
        #expect(String(decoding: try Gzip.decompress(question.bodyBytes), as: UTF8.self).contains("csrf"))
    }

    @Test("a prefetch neither uses nor fills the cache, and the visit after it still selects the tab")
    func prefetchStaysOut() async throws {
        let app = try metricsApp()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        _ = await client.get("/tabs/music")
        let hits = await sample(client, "tabserver_page_cache_hits_total")
        for _ in 0..<3 { _ = await client.get("/tabs/movies", headers: [("Sec-Purpose", "prefetch")]) }
        _ = await client.get("/tabs/music", headers: [("Sec-Purpose", "prefetch")])
        await #expect(sample(client, "tabserver_page_cache_hits_total") == hits)
        await #expect(client.get("/").location == "/tabs/music", "prefetches changed nothing")
        let visit = await client.get("/tabs/movies")
        #expect(visit.tags(containing: "aria-current=\"page\"").contains { $0.contains("movies") })
        await #expect(client.get("/").location == "/tabs/movies", "the visit selected the tab")
    }

    @Test("two visitors never see each other's page: each cached page carries its own token")
    func visitorsAreApart() async throws {
        let app = try metricsApp()
        let one = TestClient(app.responder)
        let two = TestClient(app.responder)
        for client in [one, two] { for _ in 0..<3 { _ = await client.get("/tabs/music") } }
        let mine = await one.get("/tabs/music")
        let theirs = await two.get("/tabs/music")
        #expect(mine.csrfToken != nil && theirs.csrfToken != nil)
        #expect(mine.csrfToken != theirs.csrfToken)
        // The same page but for the token, wherever it appears (each form, the script's
        // field): every occurrence is the visitor's own, filled into the shared rendering.
        let myToken = try #require(mine.csrfToken)
        let theirToken = try #require(theirs.csrfToken)
        let pieces = mine.body.split(separator: myToken, omittingEmptySubsequences: false)
        #expect(pieces.count >= 2)
        #expect(theirs.body.split(separator: theirToken, omittingEmptySubsequences: false).count == pieces.count)
        #expect(pieces.joined(separator: theirToken) == theirs.body)
        // One's cookie with the other's ETag: a 200 of one's own page, not a 304.
        let etag = try #require(theirs.headers["etag"])
        let crossed = await one.get("/tabs/music", headers: [("If-None-Match", etag)])
        #expect(crossed.status == 200)
        #expect(crossed.csrfToken == mine.csrfToken)
    }

    @Test("signed-in visitors and pages with a query are not kept")
    func notKept() async throws {
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        configuration.identityHeader = "X-User"
        let app = try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
        let client = TestClient(app.responder)
        let user = [("X-User", "ada")]
        for _ in 0..<3 { _ = await client.get("/tabs/music", headers: user) }
        for _ in 0..<3 { _ = await client.get("/tabs/music?x=1") }
        await #expect(sample(client, "tabserver_page_cache_hits_total") == 0)
    }
}
