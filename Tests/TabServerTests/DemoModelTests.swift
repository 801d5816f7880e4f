// SPDX-License-Identifier: Apache-2.0
import TabServerCore
import TabServerDemo
import TabServerTesting
import Testing

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
        #expect(page.body.contains("has-more-compact"), "a phone shows More")
        #expect(!page.body.contains("has-more-regular"), "six tabs and search fit 768 px and wider")
        #expect(page.body.contains("tab-position-compact\">More, tab 4 of 5</span>"))
        #expect(page.body.contains("tab-position-compact\">Search, tab 5 of 5</span>"))
        await #expect(client.get("/tabs/purchased").status == 404, "hidden by default: no pages until shown")
        await #expect(client.get("/tabs/search?q=blue").status == 200)
    }

    @Test("at desktop width the sidebar, with the Watch and Listen headings and its toggle; minimizes on scroll")
    func sidebarAndMinimize() async throws {
        let page = try await client().get("/tabs/music")
        #expect(page.body.contains("id=\"sidebar-toggle\""), "the sidebar toggle is offered")
        #expect(page.body.contains("name=\"collapse\" value=\"Watch\""))
        #expect(page.body.contains("name=\"collapse\" value=\"Listen\""))
        #expect(!page.body.contains("value=\"Library\""), "the hidden tab's group has no heading")
        #expect(page.body.contains("minimize-on-scroll-down"))
    }

    @Test("Edit shows Purchased under Hidden tabs; Show brings it back with its Library heading")
    func showTheHiddenTab() async throws {
        let client = try client()
        let edit = await client.get("/more/edit")
        #expect(edit.body.contains("id=\"show-purchased\""))
        let token = try #require(edit.csrfToken)
        let version = try #require(edit.attribute(named: "value", inTagContaining: "name=\"version\""))
        let shown = await client.post(
            "/more/edit", form: [("csrf", token), ("action", "show"), ("tab", "purchased"), ("version", version)])
        #expect(shown.status == 303)
        let page = await client.get("/tabs/purchased")
        #expect(page.status == 200)
        #expect(page.barTabIDs.contains("purchased"))
        #expect(page.body.contains("name=\"collapse\" value=\"Library\""))
    }

    @Test("the now-playing strip shows once something plays, on every tab")
    func accessoryAfterPlay() async throws {
        let client = try client()
        let before = await client.get("/tabs/featured")
        #expect(!before.body.contains("class=\"now-playing"), "nothing plays on a first visit")
        let player = await client.get("/tabs/music/albums/1/play")
        let token = try #require(player.csrfToken)
        let played = await client.post("/tabs/music/albums/1/play", form: [("csrf", token)])
        #expect(played.status == 303)
        await #expect(client.get("/tabs/podcasts").body.contains("class=\"now-playing"))
    }
}
