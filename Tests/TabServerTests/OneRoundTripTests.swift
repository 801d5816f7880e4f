// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

@testable import TabServerCommand

/// A script's post (`TabServer-Answer: page`) is answered with the page
/// its 303 would lead to, in one round trip; without the header the 303 flow stays.
@Suite("The page itself in answer to a script's post (one round trip per tap)")
struct OneRoundTripTests {
    static let asksForPage = [("TabServer-Answer", "page")]

    /// Store updates so far, from the metrics endpoint.
    static func updates(_ client: TestClient) async -> Double {
        await MetricsTests.sample(
            client.get("/metrics").body, #"tabserver_session_store_duration_seconds_count{operation="update"}"#) ?? 0
    }

    @Test("a select answers 200 with the destination page, its address in TabServer-Location, state changed once")
    func selectAnswersThePage() async throws {
        let recorder = HookRecorder()
        let app = try makeApp(hooks: recorder.hooks()) { $0.metrics = true }
        let client = TestClient(app.responder)
        let token = try await #require(client.get("/tabs/music/albums/2").csrfToken)
        await #expect(client.get("/tabs/featured").status == 200)
        let before = await Self.updates(client)
        let answer = await client.post("/select", form: [("csrf", token), ("tab", "music")], headers: Self.asksForPage)
        #expect(answer.status == 200)
        #expect(answer.location == nil)
        #expect(answer.headers["tabserver-location"] == "/tabs/music/albums/2")
        #expect(answer.headers["content-type"] == "text/html; charset=utf-8")
        #expect(answer.currentTabID == "music")
        // The same page a GET of the 303's Location shows.
        let followed = await client.get("/tabs/music/albums/2")
        #expect(answer.body == followed.body)
        // One write for the select and the visit together (the GET above wrote nothing new).
        await #expect(Self.updates(client) - before == 1 + 0)
        #expect(recorder.all.filter { $0 == "didSelect music" }.count == 1)
        await #expect(client.get("/").location == "/tabs/music/albums/2")
    }

    @Test("a new visitor's first tap: the page and the cookie in one answer, the page's forms with its own token")
    func newVisitor() async throws {
        let client = TestClient(try makeApp().responder)
        let token = try await #require(client.get("/tabs/featured").csrfToken)
        let answer = await client.post("/select", form: [("csrf", token), ("tab", "tv")], headers: Self.asksForPage)
        #expect(answer.status == 200)
        #expect(answer.headers["tabserver-location"] == "/tabs/tv")
        #expect(answer.headers["set-cookie"]?.hasPrefix("tabserver_session=") == true)
        let own = try #require(answer.csrfToken)
        #expect(own != token)
        // The page's token is the one the stored session checks.
        let next = await client.post("/select", form: [("csrf", own), ("tab", "movies")], headers: Self.asksForPage)
        #expect(next.headers["tabserver-location"] == "/tabs/movies")
        await #expect(client.get("/").location == "/tabs/movies")
    }

    @Test("without a CSRF token: 403, nothing changed")
    func csrfStillRequired() async throws {
        let client = TestClient(try makeApp().responder)
        _ = await client.get("/tabs/music")
        let refused = await client.post("/select", form: [("tab", "tv")], headers: Self.asksForPage)
        #expect(refused.status == 403)
        #expect(refused.headers["tabserver-location"] == nil)
        await #expect(client.get("/").location == "/tabs/music")
    }

    @Test("without the header: 303 as before")
    func withoutTheHeader() async throws {
        let client = TestClient(try makeApp().responder)
        let token = try await #require(client.get("/tabs/music").csrfToken)
        let selected = await client.post("/select", form: [("csrf", token), ("tab", "tv")])
        #expect(selected.status == 303)
        #expect(selected.location == "/tabs/tv")
        #expect(selected.headers["tabserver-location"] == nil)
    }

    @Test("a re-tap at the root stays 204")
    func retapStays204() async throws {
        let client = TestClient(try makeApp().responder)
        let token = try await #require(client.get("/tabs/music").csrfToken)
        let retap = await client.post(
            "/select", form: [("csrf", token), ("tab", "music"), ("return", "/tabs/music")], headers: Self.asksForPage)
        #expect(retap.status == 204)
    }

    @Test("a question answers the page that asks it; confirming answers the tab")
    func questionAndVeto() async throws {
        let client = TestClient(try makeApp().responder)
        let token = try await #require(client.get("/tabs/music/albums/1").csrfToken)
        let question = await client.post(
            "/select", form: [("csrf", token), ("tab", "purchased"), ("return", "/tabs/music/albums/1")],
            headers: Self.asksForPage)
        #expect(question.status == 200)
        #expect(question.headers["tabserver-location"] == "/tabs/music/albums/1?confirm=purchased")
        #expect(try question.document.first("main input[name=confirmed]")?.attribute("value") == "1")
        #expect(question.currentTabID == "music")
        let confirmed = await client.post(
            "/select", form: [("csrf", token), ("tab", "purchased"), ("confirmed", "1")], headers: Self.asksForPage)
        #expect(confirmed.status == 200)
        #expect(confirmed.headers["tabserver-location"] == "/tabs/purchased")
        #expect(confirmed.currentTabID == "purchased")
    }

    @Test("a refused tap's page shows its notice, never the page cache's copy without it")
    func refusalIsNotACachedPage() async throws {
        var hooks = demoHooks()
        hooks.shouldSelect = { tab, _, _ in tab.id == "tv" ? .deny("TV is resting.") : .allow }
        let client = TestClient(try makeApp(hooks: hooks).responder)
        let token = try await #require(client.get("/tabs/music").csrfToken)
        // Seen again with nothing changed: kept in the page cache.
        await #expect(client.get("/tabs/music").status == 200)
        let refused = await client.post(
            "/select", form: [("csrf", token), ("tab", "tv"), ("return", "/tabs/music")], headers: Self.asksForPage)
        #expect(refused.status == 200)
        #expect(refused.headers["tabserver-location"] == "/tabs/music")
        #expect(refused.body.contains("TV is resting."))
        // Shown once.
        await #expect(!client.get("/tabs/music").body.contains("TV is resting."))
        await #expect(client.get("/").location == "/tabs/music")
    }

    @Test("under a base path: the header carries it, and the page's links do too")
    func basePath() async throws {
        let client = TestClient(try makeApp { $0.basePath = "/store" }.responder)
        let token = try await #require(client.get("/store/tabs/music").csrfToken)
        let answer = await client.post(
            "/store/select", form: [("csrf", token), ("tab", "movies")], headers: Self.asksForPage)
        #expect(answer.status == 200)
        #expect(answer.headers["tabserver-location"] == "/store/tabs/movies")
        #expect(try answer.document.select("nav.tab-bar form").map { $0.attribute("action") }.contains("/store/select"))
    }

    @Test("a prefetch of a tab page changes nothing")
    func prefetchChangesNothing() async throws {
        let client = TestClient(try makeApp().responder)
        _ = await client.get("/tabs/music/albums/2")
        let prefetched = await client.get("/tabs/tv", headers: [("Purpose", "prefetch")])
        #expect(prefetched.status == 200)
        #expect(prefetched.currentTabID == "tv")
        await #expect(client.get("/").location == "/tabs/music/albums/2")
        #expect(prefetched.headers["tabserver-select"] == "allow")
        // A tab that asks first: the script must wait for the select's answer.
        let asks = await client.get("/tabs/purchased", headers: [("Purpose", "prefetch")])
        #expect(asks.headers["tabserver-select"] == "ask")
        await #expect(client.get("/tabs/tv").headers["tabserver-select"] == nil)
    }
}
