// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTesting
import Testing

/// Speculation rules: every page names the visitor's rules (a header, so the page's bytes
/// stay everyone's), links inside a tab are prefetched at moderate eagerness, the
/// likeliest next tab is prerendered, and what the browser fetches ahead never changes the
/// session or counts as a visit.
@Suite("Speculation rules")
struct SpeculationTests {
    func rules(_ client: TestClient) async throws -> [String: Any] {
        let answer = await client.get("/speculation-rules.json")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/speculationrules+json")
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.bodyBytes)) as? [String: Any])
    }

    func prerendered(_ rules: [String: Any]) -> [String] {
        ((rules["prerender"] as? [[String: Any]])?.first?["urls"] as? [String]) ?? []
    }

    @Test("every page names the rules; in-tab links prefetched; the next tab prerendered once a session is stored")
    func header() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/featured")
        #expect(page.headers["speculation-rules"] == "\"/speculation-rules.json\"")
        let rules = try await rules(client)
        let prefetch = try #require((rules["prefetch"] as? [[String: Any]])?.first)
        #expect(prefetch["eagerness"] as? String == "moderate")
        #expect(prefetch["source"] as? String == "document")
        // No session stored yet: nothing prerendered (its form token would be the old one).
        #expect(prerendered(rules) == [])
        _ = await client.get("/tabs/movies")  // stores the session
        _ = await client.get("/tabs/featured")
        #expect(client.cookies["tabserver_session"] != nil)
        #expect(prerendered(try await self.rules(client)) == ["/tabs/music"])
        let again = await client.get(
            "/speculation-rules.json",
            headers: [("If-None-Match", client.get("/speculation-rules.json").headers["etag"] ?? "")])
        #expect(again.status == 304)
    }

    @Test("the likeliest next tab is one with a count badge, at the place it was left")
    func likeliest() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music/albums/1")
        _ = await client.get("/tabs/featured")
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        await #expect(prerendered(try rules(client)) == ["/tabs/music/albums/1"])
        #expect(try await app.setBadge(.badge(.count(2)), forTab: "movies", visitor: id))
        await #expect(prerendered(try rules(client)) == ["/tabs/movies"])
    }

    @Test(
        "a prefetch or prerender changes nothing: no session made, no selection, no place remembered",
        arguments: [
            ("Sec-Purpose", "prefetch"), ("Sec-Purpose", "prefetch;prerender"), ("SEC-PURPOSE", "Prefetch"),
            ("Purpose", "prefetch"), ("X-Purpose", "preview; prefetch"), ("X-Moz", "prefetch"),
            ("X-Purpose", "preview"), ("x-purpose", "Preview"),
        ])
    func noVisit(_ field: String, _ purpose: String) async throws {
        let app = try makeApp()
        let fresh = TestClient(app.responder)
        let ahead = await fresh.get("/tabs/movies", headers: [(field, purpose)])
        #expect(ahead.status == 200)
        #expect(fresh.cookies.isEmpty)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music/albums/1")
        let id = try #require(client.cookies["tabserver_session"].flatMap { SessionID(cookieValue: $0) })
        let before = try #require(try app.engineStore.load(id, now: wallClockSeconds()))
        await #expect(client.get("/tabs/movies/1", headers: [(field, purpose)]).status != 0)
        await #expect(client.get("/more", headers: [(field, purpose)]).status == 200)
        let after = try #require(try app.engineStore.load(id, now: wallClockSeconds()))
        #expect(after.revision == before.revision)
        #expect(after.state == before.state)
        // A real visit does change it: the check can fail.
        _ = await client.get("/tabs/movies")
        #expect(try app.engineStore.load(id, now: wallClockSeconds())?.state.selectedTabID == "movies")
    }
}
