// SPDX-License-Identifier: Apache-2.0
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

    func app(_ text: String = Self.tabs) throws -> (Application, String) {
        let path = TestFixtures.temporaryDirectory("groups") + "/tabs.json"
        TestFixtures.write(text, to: path)
        return (try makeApp { $0.tabsFile = path }, path)
    }

    @Test("the heading is a button of the bar's form; collapsing is a 303 back, kept in the session")
    func collapseAndExpand() async throws {
        let client = TestClient(try app().0.responder)
        let page = await client.get("/tabs/featured")
        #expect(page.body.contains("name=\"collapse\" value=\"Watch\""))
        #expect(page.body.contains("aria-expanded=\"true\""))
        #expect(page.body.contains("formaction=\"/sidebar/group\""))
        #expect(!page.body.contains("in-collapsed-group"))
        let token = try #require(page.csrfToken)
        let collapsed = await client.post(
            "/sidebar/group", form: [("csrf", token), ("return", "/tabs/featured"), ("collapse", "Watch")])
        #expect(collapsed.status == 303)
        #expect(collapsed.location == "/tabs/featured")
        let after = await client.get("/tabs/music")
        #expect(after.body.contains("name=\"expand\" value=\"Watch\""))
        #expect(after.body.contains("aria-expanded=\"false\""))
        #expect(after.body.contains("in-collapsed-group"))
        #expect(after.body.contains("name=\"collapse\" value=\"Listen\""), "the other group stays open")
        #expect(after.barTabIDs == ["featured", "movies", "tv", "music", "podcasts"], "the tabs stay in the markup")
        let again = try #require(after.csrfToken, "the session's own token from now on")
        let expanded = await client.post("/sidebar/group", form: [("csrf", again), ("expand", "Watch")])
        #expect(expanded.status == 303)
        await #expect(!client.get("/tabs/music").body.contains("in-collapsed-group"))
    }

    @Test("bad input changes nothing: an unknown group 400, no field 400, no CSRF 403, a stale post 409")
    func badInput() async throws {
        let client = TestClient(try app().0.responder)
        let token = try await #require(client.get("/tabs/featured").csrfToken)
        let unknown = await client.post("/sidebar/group", form: [("csrf", token), ("collapse", "Read")])
        #expect(unknown.status == 400)
        #expect(unknown.body.contains("Read"))
        await #expect(client.post("/sidebar/group", form: [("csrf", token)]).status == 400)
        await #expect(client.post("/sidebar/group", form: [("collapse", "Watch")]).status == 403)
        await #expect(client.post("/sidebar/group", form: [("csrf", "x"), ("collapse", "Watch")]).status == 403)
        await #expect(!client.get("/tabs/featured").body.contains("in-collapsed-group"))
        await #expect(client.post("/sidebar/group", form: [("csrf", token), ("collapse", "Watch")]).status == 303)
        let session = try await #require(client.get("/tabs/featured").csrfToken)
        let stale = await client.post("/sidebar/group", form: [("csrf", session), ("collapse", "Watch")])
        #expect(stale.status == 409)
        #expect(stale.body.contains("already collapsed"))
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
        #expect(!page.body.contains("in-collapsed-group"))
        #expect(page.body.contains("name=\"collapse\" value=\"See\""))
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
