// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTabBar
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("A search tab in the app: GET form, shareable results, the last query remembered")
struct SearchTabPageTests {
    static let tabs = """
        {"tabs": [
          {"id": "featured", "title": "Featured", "icon": "featured.svg", "isCustomizable": false},
          {"id": "search", "title": "Search", "icon": "tv.svg", "role": "search"},
          {"id": "music", "title": "Music", "icon": "music.svg"},
          {"id": "movies", "title": "Movies", "icon": "movies.svg"},
          {"id": "tv", "title": "TV Shows", "icon": "tv.svg"},
          {"id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg"}
        ]}
        """

    func app() throws -> Application {
        let path = TestFixtures.temporaryDirectory("search") + "/tabs.json"
        TestFixtures.write(Self.tabs, to: path)
        return try makeApp { $0.tabsFile = path }
    }

    @Test("the bar ends with the search tab after More; the page is a search landmark with a GET form")
    func page() async throws {
        let client = TestClient(try app().responder)
        let page = await client.get("/tabs/search")
        #expect(page.status == 200)
        #expect(page.barTabIDs.last == "search")
        let form = try #require(try page.document.first("main form[role=search]"))
        #expect(form.attribute("method") == "get" && form.attribute("action") == "/tabs/search")
        #expect(try form.first("input[name=q]")?.hasAttribute("autofocus") == true)
        #expect(try page.document.first("nav.tab-bar li.tab-item.is-search button[value=search]") != nil)
    }

    @Test("results are a shareable URL, and selecting the tab later returns to the last query")
    func rememberedQuery() async throws {
        let client = TestClient(try app().responder)
        let results = await client.get("/tabs/search?q=blue")
        #expect(results.status == 200)
        #expect(try !results.document.select("main .row").isEmpty, "the demo catalogue has something blue")
        let elsewhere = await client.get("/tabs/music")
        let token = try #require(elsewhere.csrfToken)
        let back = await client.post("/select", form: [("csrf", token), ("tab", "search")])
        #expect(back.status == 303)
        #expect(back.location == "/tabs/search?q=blue")
        await #expect(client.get("/").location == "/tabs/search?q=blue")
    }

    @Test("the shipped tabs.json has the search tab: the demo's bar ends with it, its page answers")
    func shipped() async throws {
        var configuration = TestFixtures.configuration()
        configuration.tabsFile = TestFixtures.demoTabsFile
        let app = try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), log: quietLog)
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/search")
        #expect(page.status == 200)
        #expect(page.barTabIDs.last == "search")
        #expect(try page.document.first("main input.search-field[name=q]") != nil)
    }
}
