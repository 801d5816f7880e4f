// SPDX-License-Identifier: Apache-2.0
import TabServerCore
import TabServerTesting
import Testing

@testable import TabServerCommand

/// The demo's own tabs.json: a newcomer's first run shows what the
/// framework does. The other tests run on the tests' model (`TestFixtures.testTabsFile`).
@Suite("The demo's model shows it all: search, groups, a hidden tab, the sidebar, minimizing")
struct DemoModelTests {
    func client() throws -> TestClient {
        var configuration = TestFixtures.configuration()
        configuration.tabsFile = TestFixtures.demoTabsFile
        let app = try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), log: quietLog)
        return TestClient(app.responder)
    }

    @Test("the bar: six tabs and search, Purchased hidden; 3 + More + Search on a phone, 6 + Search wider")
    func bar() async throws {
        let client = try client()
        let page = await client.get("/tabs/featured")
        #expect(page.status == 200)
        #expect(page.barTabIDs == ["featured", "music", "movies", "tv", "podcasts", "audiobooks", "search"])
        let bar = try #require(try page.document.first("nav.tab-bar"))
        #expect(bar.classes.contains("has-more-compact"), "a phone shows More")
        #expect(!bar.classes.contains("has-more-regular"), "six tabs and search fit 768 px and wider")
        #expect(try bar.first(".tab-more .tab-position-compact")?.text == "More, tab 4 of 5")
        #expect(try bar.first("button[value=search] .tab-position-compact")?.text == "Search, tab 5 of 5")
        await #expect(client.get("/tabs/purchased").status == 404, "hidden by default: no pages until shown")
        await #expect(client.get("/tabs/search?q=blue").status == 200)
    }

    @Test("at desktop width the sidebar, with the Watch and Listen headings and its toggle; minimizes on scroll")
    func sidebarAndMinimize() async throws {
        let page = try await client().get("/tabs/music")
        let document = page.document
        #expect(try document.first("nav.tab-bar #sidebar-toggle") != nil, "the sidebar toggle is offered")
        let headings = try document.select("nav.tab-bar button.tab-group-toggle").map { $0.attribute("value") }
        #expect(headings == ["Watch", "Listen"], "the hidden tab's group (Library) has no heading")
        #expect(page.bodyClasses.contains("minimize-on-scroll-down"))
    }

    @Test("Edit shows Purchased under Hidden tabs; Show brings it back with its Library heading")
    func showTheHiddenTab() async throws {
        let client = try client()
        let edit = await client.get("/more/edit")
        #expect(try edit.document.first("#show-purchased") != nil)
        let token = try #require(edit.csrfToken)
        let version = try #require(edit.attribute(named: "value", inTagContaining: "name=\"version\""))
        let shown = await client.post(
            "/more/edit", form: [("csrf", token), ("action", "show"), ("tab", "purchased"), ("version", version)])
        #expect(shown.status == 303)
        let page = await client.get("/tabs/purchased")
        #expect(page.status == 200)
        #expect(page.barTabIDs.contains("purchased"))
        #expect(try page.document.first("nav.tab-bar button.tab-group-toggle[value=Library]") != nil)
    }

    @Test("the now-playing strip shows once something plays, on every tab")
    func accessoryAfterPlay() async throws {
        let client = try client()
        let before = await client.get("/tabs/featured")
        #expect(try before.document.first(".now-playing") == nil, "nothing plays on a first visit")
        let player = await client.get("/tabs/music/albums/1/play")
        let token = try #require(player.csrfToken)
        let played = await client.post("/tabs/music/albums/1/play", form: [("csrf", token)])
        #expect(played.status == 303)
        #expect(try await client.get("/tabs/podcasts").document.first("aside.tab-accessory .now-playing") != nil)
    }
}
