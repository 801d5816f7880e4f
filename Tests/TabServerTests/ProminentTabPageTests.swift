// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

@Suite("The prominent tab in the page: apart where the search tab was, counted by screen readers")
struct ProminentTabPageTests {
    static func tabs(prominent: Bool = true) -> String {
        let role = prominent ? #", "role": "prominent""# : ""
        return """
            {"appearance": {"barStyle": "floating"}, "tabs": [
              {"id": "featured", "title": "Featured", "icon": "featured.svg"},
              {"id": "new", "title": "New", "icon": "music.svg", "template": "featured"\(role)},
              {"id": "music", "title": "Music", "icon": "music.svg"},
              {"id": "movies", "title": "Movies", "icon": "movies.svg"},
              {"id": "tv", "title": "TV Shows", "icon": "tv.svg"},
              {"id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg"},
              {"id": "search", "title": "Search", "icon": "tv.svg", "role": "search"}
            ]}
            """
    }

    func client(_ tabs: String = tabs()) throws -> TestClient {
        let path = TestFixtures.temporaryDirectory("prominent") + "/tabs.json"
        TestFixtures.write(tabs, to: path)
        return TestClient(try makeApp { $0.tabsFile = path }.responder)
    }

    @Test("it ends the bar after the search tab and is the one apart; the search tab joins the others")
    func apart() async throws {
        let page = try await client().get("/tabs/featured")
        #expect(page.status == 200)
        #expect(page.barTabIDs.suffix(2) == ["search", "new"])
        let bar = try #require(try page.document.first("nav.tab-bar"))
        #expect(try bar.select("li.is-apart > button").map { $0.attribute("value") } == ["new"])
        #expect(try bar.first("li.is-prominent.is-apart button[value=new]") != nil)
        let search = try #require(try bar.first("li.is-search"))
        #expect(!search.classes.contains("is-apart"))
        // Phone: Featured, Music, More, Search, New; each reads its place among the five.
        #expect(try bar.first("button[value=new] .tab-position-compact")?.text == "New, tab 5 of 5")
        #expect(try bar.first("button[value=search] .tab-position-compact")?.text == "Search, tab 4 of 5")
        #expect(try bar.first("button[value=new] .tab-position-regular")?.text == "New, tab 7 of 7")
    }

    @Test("without a prominent tab the search tab keeps its place apart")
    func searchApart() async throws {
        let page = try await client(Self.tabs(prominent: false)).get("/tabs/featured")
        let bar = try #require(try page.document.first("nav.tab-bar"))
        #expect(try bar.select("li.is-apart > button").map { $0.attribute("value") } == ["search"])
        #expect(try bar.select("li.is-prominent").isEmpty)
    }

    @Test("selecting it is a selection like any other, remembered in the session")
    func select() async throws {
        let client = try client()
        let page = await client.get("/tabs/featured")
        let token = try #require(page.csrfToken)
        let selected = await client.post("/select", form: [("csrf", token), ("tab", "new")])
        #expect(selected.status == 303)
        #expect(selected.location == "/tabs/new")
        await #expect(client.get("/").location == "/tabs/new")
    }
}
