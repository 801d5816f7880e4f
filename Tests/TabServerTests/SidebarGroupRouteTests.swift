// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTabBar
import TabServerTesting
import Testing

@Suite("POST /sidebar/group: a tab group's sidebar section collapses and stays so")
struct SidebarGroupRouteTests {
    static let tabs = """
        {"appearance": {"regularLayout": "sidebar"}, "tabs": [
          {"id": "featured", "title": "Featured", "icon": "featured.svg"},
          {"id": "movies", "title": "Movies", "icon": "movies.svg", "group": "Watch"},
          {"id": "tv", "title": "TV Shows", "icon": "tv.svg", "group": "Watch"},
          {"id": "music", "title": "Music", "icon": "music.svg", "group": "Listen"},
          {"id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg", "group": "Listen"}
        ]}
        """

    /// The heading button of `group`'s section in the bar, nil when there is none.
    static func toggle(_ page: TestResponse, _ group: String) throws -> HTMLElement? {
        try page.document.first("nav.tab-bar button.tab-group-toggle[value=\"\(group)\"]")
    }

    /// The bar's items inside a collapsed section.
    static func collapsedItems(_ page: TestResponse) throws -> Int {
        try page.document.select("nav.tab-bar li.tab-item.in-collapsed-group").count
    }

    func app(_ text: String = Self.tabs) throws -> (Application, String) {
        let path = TestFixtures.temporaryDirectory("groups") + "/tabs.json"
        TestFixtures.write(text, to: path)
        return (try makeApp { $0.tabsFile = path }, path)
    }

    @Test("the heading is a button of the bar's form; collapsing is a 303 back, kept in the session")
    func collapseAndExpand() async throws {
        let client = TestClient(try app().0.responder)
        let page = await client.get("/tabs/featured")
        let watch = try #require(try Self.toggle(page, "Watch"))
        #expect(watch.attribute("name") == "collapse")
        #expect(watch.attribute("aria-expanded") == "true")
        #expect(watch.attribute("formaction") == "/sidebar/group")
        #expect(try Self.collapsedItems(page) == 0)
        let token = try #require(page.csrfToken)
        let collapsed = await client.post(
            "/sidebar/group", form: [("csrf", token), ("return", "/tabs/featured"), ("collapse", "Watch")])
        #expect(collapsed.status == 303)
        #expect(collapsed.location == "/tabs/featured")
        let after = await client.get("/tabs/music")
        let collapsedWatch = try #require(try Self.toggle(after, "Watch"))
        #expect(collapsedWatch.attribute("name") == "expand")
        #expect(collapsedWatch.attribute("aria-expanded") == "false")
        #expect(try Self.collapsedItems(after) == 2, "Movies and TV Shows")
        #expect(try Self.toggle(after, "Listen")?.attribute("name") == "collapse", "the other group stays open")
        #expect(after.barTabIDs == ["featured", "movies", "tv", "music", "podcasts"], "the tabs stay in the markup")
        let again = try #require(after.csrfToken, "the session's own token from now on")
        let expanded = await client.post("/sidebar/group", form: [("csrf", again), ("expand", "Watch")])
        #expect(expanded.status == 303)
        #expect(try await Self.collapsedItems(client.get("/tabs/music")) == 0)
    }

    @Test("bad input changes nothing: an unknown group 400, no field 400, no CSRF 403, a stale post 409")
    func badInput() async throws {
        let client = TestClient(try app().0.responder)
        let token = try await #require(client.get("/tabs/featured").csrfToken)
        let unknown = await client.post("/sidebar/group", form: [("csrf", token), ("collapse", "Read")])
        #expect(unknown.status == 400)
        #expect(unknown.mainText.contains("Read"))
        await #expect(client.post("/sidebar/group", form: [("csrf", token)]).status == 400)
        await #expect(client.post("/sidebar/group", form: [("collapse", "Watch")]).status == 403)
        await #expect(client.post("/sidebar/group", form: [("csrf", "x"), ("collapse", "Watch")]).status == 403)
        #expect(try await Self.collapsedItems(client.get("/tabs/featured")) == 0)
        await #expect(client.post("/sidebar/group", form: [("csrf", token), ("collapse", "Watch")]).status == 303)
        let session = try await #require(client.get("/tabs/featured").csrfToken)
        let stale = await client.post("/sidebar/group", form: [("csrf", session), ("collapse", "Watch")])
        #expect(stale.status == 409)
        #expect(stale.mainText.contains("already collapsed"))
        await #expect(client.post("/sidebar/group", form: [("csrf", session), ("expand", "Listen")]).status == 409)
    }

    @Test("a model without the group drops the choice on reload")
    func reload() async throws {
        let (app, path) = try app()
        let client = TestClient(app.responder)
        let token = try await #require(client.get("/tabs/featured").csrfToken)
        await #expect(client.post("/sidebar/group", form: [("csrf", token), ("collapse", "Watch")]).status == 303)
        TestFixtures.write(Self.tabs.replacingOccurrences(of: #""group": "Watch""#, with: #""group": "See""#), to: path)
        #expect(app.reloadTabs() == nil)
        let page = await client.get("/tabs/featured")
        #expect(try Self.collapsedItems(page) == 0)
        #expect(try Self.toggle(page, "See")?.attribute("name") == "collapse")
    }

    @Test("the choice is stored as the session's tail entry 5 and read back")
    func codec() throws {
        var session = Session.new(now: 1_700_000_000)
        session.state.collapsedGroups = ["Listen", "Watch"]
        let decoded = try SessionCodec.decode(SessionCodec.encode(session), id: session.id, revision: 0)
        #expect(decoded.state.collapsedGroups == ["Listen", "Watch"])
        let controller = TabBarController(model: try TabBarModel.decode(json: Self.tabs))
        #expect(controller.groupNames == ["Watch", "Listen"])
        #expect(controller.settingGroup("Read", collapsed: true, in: TabBarState()) == nil)
        let state = try #require(controller.settingGroup("Watch", collapsed: true, in: TabBarState()))
        #expect(state.collapsedGroups == ["Watch"] && state.version == 1)
        #expect(controller.reconciled(state) == state)
    }
}
