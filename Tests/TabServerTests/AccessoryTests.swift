// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerTabBar
import TabServerTesting
import Testing

@testable import TabServerCommand

/// The bottom accessory (UIKit's `UITabAccessory`): a strip above the
/// bar from the content provider and a template, across tabs, with its own forms.
@Suite("The bottom accessory: the demo's now-playing strip and the TabContent API")
struct AccessoryTests {
    /// The value of the demo's play/pause button in the strip: "0" (it pauses) or "1" (it plays).
    static func toggleValue(_ page: TestResponse) throws -> String? {
        try toggle(page)?.attribute("value")
    }

    /// The demo's play/pause button in the strip.
    static func toggle(_ page: TestResponse) throws -> HTMLElement? {
        try page.document.first("aside.tab-accessory button#now-playing-toggle[name=playing]")
    }

    /// The strips on the page (none, or one).
    static func strips(_ page: TestResponse) throws -> [HTMLElement] {
        try page.document.select(".tab-accessory")
    }

    /// A demo visitor who pressed Play on the first album's player.
    static func playing() async throws -> TestClient {
        let client = TestClient(try makeApp().responder)
        let player = await client.get("/tabs/music/albums/1/play")
        #expect(player.status == 200)
        #expect(try strips(player).isEmpty, "nothing plays yet")
        let token = try #require(player.csrfToken)
        let played = await client.post("/tabs/music/albums/1/play", form: [("csrf", token)])
        #expect(played.status == 303)
        #expect(played.location == "/tabs/music/albums/1/play")
        return client
    }

    @Test("nothing until something plays; then the strip is on every tab and More, never on a page without the bar")
    func acrossTabs() async throws {
        let fresh = TestClient(try makeApp().responder)
        let before = await fresh.get("/tabs/music")
        #expect(before.status == 200)
        #expect(try Self.strips(before).isEmpty)
        let client = try await Self.playing()
        let player = await client.get("/tabs/music/albums/1/play")
        #expect(player.body.contains("Playing “"), "the player says so")
        #expect(try Self.strips(player).isEmpty, "a page that hides the bar hides the strip")
        for path in ["/tabs/music", "/tabs/movies", "/tabs/tv/shows/1", "/more"] {
            let page = await client.get(path)
            #expect(page.status == 200)
            let strips = try Self.strips(page)
            #expect(strips.count == 1, "\(path)")
            #expect(strips.first?.name == "aside", "\(path)")
            #expect(strips.first?.attribute("aria-label") == "Now Playing", "\(path)")
            #expect(try page.document.first("body")?.classes.contains("has-accessory") == true, "\(path)")
            #expect(try Self.toggleValue(page) == "0", "\(path): playing, so the button pauses")
            #expect(try strips.first?.first("form[method=post][action='/accessory/toggle'] #now-playing-toggle") != nil)
        }
        // The strip comes before the bar (read before it, drawn above it).
        let movies = await client.get("/tabs/movies")
        #expect(try movies.document.select("aside.tab-accessory, nav.tab-bar").map(\.name) == ["aside", "nav"])
        let edit = await client.get("/more/edit")
        #expect(edit.status == 200)
        #expect(try Self.strips(edit).isEmpty, "Edit is a sheet over everything")
    }

    @Test("play/pause posts, 303 back to the page it was on, kept in the session; the script gets the page")
    func toggle() async throws {
        let client = try await Self.playing()
        let page = await client.get("/tabs/movies")
        let token = try #require(page.csrfToken)
        let paused = await client.post(
            "/accessory/toggle", form: [("csrf", token), ("return", "/tabs/movies"), ("playing", "0")])
        #expect(paused.status == 303)
        #expect(paused.location == "/tabs/movies")
        let after = await client.get("/tabs/podcasts")
        #expect(try Self.toggleValue(after) == "1")
        #expect(try Self.toggle(after)?.attribute("aria-label") == "Play")
        let answer = await client.post(
            "/accessory/toggle", form: [("csrf", token), ("return", "/tabs/podcasts"), ("playing", "1")],
            headers: [("TabServer-Answer", "page")])
        #expect(answer.status == 200)
        #expect(answer.headers["tabserver-location"] == "/tabs/podcasts")
        #expect(try Self.toggleValue(answer) == "0")
    }

    @Test("bad posts change nothing: no CSRF 403, a bad value 400, no such action or no strip 404, a prefetch 403")
    func badInput() async throws {
        let client = try await Self.playing()
        let token = try await #require(client.get("/tabs/movies").csrfToken)
        await #expect(client.post("/accessory/toggle", form: [("playing", "0")]).status == 403)
        await #expect(client.post("/accessory/toggle", form: [("csrf", "forged"), ("playing", "0")]).status == 403)
        let bad = await client.post("/accessory/toggle", form: [("csrf", token), ("playing", "2")])
        #expect(bad.status == 400)
        #expect(bad.body.contains("playing"))
        await #expect(client.post("/accessory/rewind", form: [("csrf", token)]).status == 404)
        let prefetch = await client.post(
            "/accessory/toggle", form: [("csrf", token), ("playing", "0")], headers: [("Sec-Purpose", "prefetch")])
        #expect(prefetch.status == 403)
        await #expect(try Self.toggleValue(client.get("/tabs/movies")) == "0", "still playing")
        let fresh = TestClient(try makeApp().responder)
        let freshToken = try await #require(fresh.get("/tabs/music").csrfToken)
        await #expect(fresh.post("/accessory/toggle", form: [("csrf", freshToken), ("playing", "1")]).status == 404)
    }

    @Test("cached pages never show one visitor's strip to another")
    func cacheKeys() async throws {
        let app = try makeApp()
        let listener = TestClient(app.responder)
        let token = try await #require(listener.get("/tabs/music/albums/2/play").csrfToken)
        _ = await listener.post("/tabs/music/albums/2/play", form: [("csrf", token)])
        let other = TestClient(app.responder)
        for _ in 0..<2 {
            await #expect(try Self.strips(listener.get("/tabs/movies")).count == 1)
            let others = await other.get("/tabs/movies")
            #expect(others.status == 200)
            #expect(try Self.strips(others).isEmpty)
        }
    }

    @Test(
        "TabContent.accessory: an app's own strip, from its template, with its actions; a missing template shows none")
    func api() async throws {
        let presses = Mutex(0)
        var content = TabContent(fallback: DemoCatalog())
        content.bottomAccessory { request in
            var strip = TabAccessory(
                label: "Downloads", template: request.visitorValues["missing"] == nil ? "now-playing" : "nope",
                context: ["title": .string("3 of 5 in \(request.selectedTab.title)"), "buttonLabel": "Pause"])
            strip.actions["toggle"] = { request in
                presses.withLock { $0 += 1 }
                return request.form.value("playing") == "1" ? ["missing": "1"] : nil
            }
            return strip
        }
        let client = TestClient(
            try buildApplication(sevenTabConfiguration(), content: content, log: quietLog).responder)
        let page = await client.get("/tabs/tv")
        let strip = try #require(try Self.strips(page).first)
        #expect(strip.attribute("aria-label") == "Downloads")
        #expect(try strip.first(".now-playing-title")?.text == "3 of 5 in TV Shows")
        let token = try #require(page.csrfToken)
        await #expect(client.post("/accessory/toggle", form: [("csrf", token), ("playing", "0")]).status == 303)
        await #expect(try Self.strips(client.get("/tabs/tv")).map { $0.attribute("aria-label") } == ["Downloads"])
        await #expect(client.post("/accessory/toggle", form: [("csrf", token), ("playing", "1")]).status == 303)
        let without = await client.get("/tabs/tv")
        #expect(without.status == 200)
        #expect(try Self.strips(without).isEmpty, "a missing template: the page without the strip")
        #expect(presses.withLock { $0 } == 2)
    }
}
