// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTabBar
import TabServerTesting
import Testing

@Suite("A declared group as one tab: its page, its stack, reordering its children in Edit")
struct GroupTabRouteTests {
    static let tabs = """
        {"tabs": [
          {"id": "featured", "title": "Featured", "icon": "featured.svg"},
          {"id": "music", "title": "Music", "icon": "music.svg"},
          {"id": "movies", "title": "Movies", "icon": "movies.svg", "group": "video"},
          {"id": "tv", "title": "TV Shows", "icon": "tv.svg", "group": "video", "badge": {"count": 2}},
          {"id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg"},
          {"id": "audiobooks", "title": "Audiobooks", "icon": "audiobooks.svg"},
          {"id": "purchased", "title": "Purchased", "icon": "purchased.svg"}
        ], "groups": [{"id": "video", "title": "Video", "icon": "movies.svg", "allowsReordering": true}]}
        """

    func app(_ text: String = Self.tabs) throws -> (Application, String) {
        let path = TestFixtures.temporaryDirectory("group-tabs") + "/tabs.json"
        TestFixtures.write(text, to: path)
        return (try makeApp { $0.tabsFile = path }, path)
    }

    @Test("the group is one bar item; selecting it shows its list; a child opens on the group's stack")
    func selectAndStack() async throws {
        let client = TestClient(try app().0.responder)
        let first = await client.get("/tabs/featured")
        let groupItem = try #require(try first.document.first("nav.tab-bar li.tab-item.is-group"))
        // One item among 4 + More, with its children's badges summed (TV Shows has 2); the
        // app badge's sum counts the child's, not the group's again.
        #expect(try groupItem.first(".tab-position-compact")?.text == "Video, 2, tab 3 of 5", "one item among 4 + More")
        let groupBadge = try #require(try groupItem.first(".tab-badge"))
        #expect(groupBadge.text == "2" && !groupBadge.hasAttribute("data-count"))
        // The sidebar's heading of the group shows it too.
        let heading = try #require(try first.document.first(".tab-group-title button"))
        #expect(heading.text.hasPrefix("Video2"), "\(heading.text)")
        #expect(try heading.first(".tab-group-badge")?.text == "2")
        #expect(try heading.first(".visually-hidden")?.text == ", 2")
        #expect(try groupItem.first("button[name=tab]")?.attribute("value") == "video")
        let token = try #require(first.csrfToken)
        let open = await client.post(
            "/select", form: [("csrf", token), ("tab", "video"), ("return", "/tabs/featured")])
        #expect(open.status == 303)
        #expect(open.location == "/tabs/video")
        let list = await client.get("/tabs/video")
        #expect(list.status == 200)
        #expect(try list.document.first("h1.app-title")?.text == "Video")
        #expect(try list.document.select("main button.row[name=tab]").map { $0.attribute("value") }.contains("tv"))
        #expect(try list.document.first("main input[name=return]")?.attribute("value") == "/tabs/video")
        #expect(list.currentTabID == "video")
        let session = try #require(list.csrfToken)
        let row = await client.post("/select", form: [("csrf", session), ("tab", "tv"), ("return", "/tabs/video")])
        #expect(row.location == "/tabs/tv")
        let child = await client.get("/tabs/tv")
        #expect(try child.document.first("header a.back-link.back-to-group")?.attribute("href") == "/tabs/video")
        #expect(child.currentTabID == "video", "the group's item is the selected one while its child shows")
        // Another tab, then the group again: the child where it was left.
        await #expect(client.post("/select", form: [("csrf", session), ("tab", "music")]).location == "/tabs/music")
        await #expect(client.get("/").location == "/tabs/music")
        let again = await client.post(
            "/select", form: [("csrf", session), ("tab", "video"), ("return", "/tabs/music")])
        #expect(again.location == "/tabs/tv")
        // A re-tap of the selected group pops to its list; at the list the script's tap is a 204.
        let retap = await client.post("/select", form: [("csrf", session), ("tab", "video"), ("return", "/tabs/tv")])
        #expect(retap.location == "/tabs/video")
        await #expect(client.get("/").location == "/tabs/video", "restoration shows the list")
        let atList = await client.post(
            "/select", form: [("csrf", session), ("tab", "video"), ("return", "/tabs/video")])
        #expect(atList.status == 204)
        await #expect(client.get("/tabs/video/extra").status == 404)
        let noCSRF = await client.post("/select", form: [("tab", "video")])
        #expect(noCSRF.status == 403)
    }

    @Test("Edit reorders the group's children: 303 and kept, 400 unknown, 403 without CSRF, 409 stale")
    func reorder() async throws {
        let (app, path) = try app()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/featured")
        let edit = await client.get("/more/edit")
        #expect(try edit.document.first("#g-up-tv") != nil)
        #expect(try edit.document.first("#group-heading-video") != nil)
        let token = try #require(edit.csrfToken)
        let version = try #require(edit.attribute(named: "value", inTagContaining: "name=\"version\""))
        let moved = await client.post(
            "/more/edit",
            form: [("csrf", token), ("version", version), ("tab", "tv"), ("action", "up"), ("view", "g")])
        #expect(moved.status == 303)
        #expect(moved.location == "/more/edit#g-down-tv")
        let listed = try await client.get("/tabs/video").document.select("main button.row[name=tab]")
        let listOrder = listed.compactMap { $0.attribute("value") }
        #expect(
            try #require(listOrder.firstIndex(of: "tv")) < #require(listOrder.firstIndex(of: "movies")),
            "the list follows the visitor's order")
        let session = try await #require(client.get("/more/edit").csrfToken)
        let stale = await client.post(
            "/more/edit", form: [("csrf", session), ("version", version), ("tab", "tv"), ("action", "down")])
        #expect(stale.status == 409)
        let current = try await #require(
            client.get("/more/edit").attribute(named: "value", inTagContaining: "name=\"version\""))
        let unknown = await client.post(
            "/more/edit", form: [("csrf", session), ("version", current), ("tab", "nope"), ("action", "up")])
        #expect(unknown.status == 400)
        let forged = await client.post(
            "/more/edit", form: [("csrf", "x"), ("version", current), ("tab", "movies"), ("action", "up")])
        #expect(forged.status == 403)
        let tooFar = await client.post(
            "/more/edit", form: [("csrf", session), ("version", current), ("tab", "tv"), ("action", "up")])
        #expect(tooFar.status == 400)
        // A model whose group no longer allows reordering: back to the model's order.
        TestFixtures.write(Self.tabs.replacingOccurrences(of: #", "allowsReordering": true"#, with: ""), to: path)
        #expect(app.reloadTabs() == nil)
        let rows = try await client.get("/tabs/video").document.select("main button.row[name=tab]")
        let order = rows.compactMap { $0.attribute("value") }
        #expect(try #require(order.firstIndex(of: "movies")) < #require(order.firstIndex(of: "tv")))
        #expect(try await client.get("/more/edit").document.first("#g-up-tv") == nil)
    }

    @Test("a bad group in tabs.json stops the start with a message naming it")
    func badModel() throws {
        let scattered = Self.tabs.replacingOccurrences(
            of: #""id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg""#,
            with: #""id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg", "group": "video""#)
        let withGap = scattered.replacingOccurrences(
            of: #""id": "tv", "title": "TV Shows", "icon": "tv.svg", "group": "video""#,
            with: #""id": "tv", "title": "TV Shows", "icon": "tv.svg""#)
        #expect(throws: (any Error).self) { try app(withGap) }
        do {
            _ = try app(withGap)
        } catch {
            #expect(String(describing: error).contains("group 'video': its tabs must be consecutive"))
        }
        let badIcon = Self.tabs.replacingOccurrences(
            of: #""icon": "movies.svg", "allowsReordering""#, with: #""icon": "nope.svg", "allowsReordering""#)
        do {
            _ = try app(badIcon)
            Issue.record("an unknown group icon must stop the start")
        } catch {
            #expect(String(describing: error).contains("nope.svg"))
        }
    }
}

@Suite("A declared group in More: its row opens the group's page, whose Back goes to More")
struct GroupInMoreRouteTests {
    @Test("More lists the group; its page goes back to More at the widths where it is in More")
    func groupInMore() async throws {
        let path = TestFixtures.temporaryDirectory("group-in-more") + "/tabs.json"
        TestFixtures.write(
            GroupTabRouteTests.tabs.replacingOccurrences(
                of: #"{"id": "music", "title": "Music", "icon": "music.svg"},"#, with: ""
            ).replacingOccurrences(
                of: #"{"id": "purchased", "title": "Purchased", "icon": "purchased.svg"}"#,
                with: #"{"id": "purchased", "title": "Purchased", "icon": "purchased.svg"},"#
                    + #"{"id": "music", "title": "Music", "icon": "music.svg"}"#
            ).replacingOccurrences(
                of: #"{"id": "featured", "title": "Featured", "icon": "featured.svg"},"#,
                with:
                    #"{"id": "featured", "title": "Featured", "icon": "featured.svg"}, {"id": "podcasts2", "title": "Podcasts", "icon": "podcasts.svg", "template": "podcasts"}, {"id": "audio2", "title": "Audio", "icon": "audiobooks.svg", "template": "audiobooks"}, {"id": "shop", "title": "Shop", "icon": "purchased.svg", "template": "purchased"},"#
            ),
            to: path)
        let client = TestClient(try makeApp { $0.tabsFile = path }.responder)
        _ = await client.get("/tabs/featured")
        let more = await client.get("/more")
        #expect(try more.document.first("main button.row[name=tab][value=video]") != nil)
        let token = try #require(more.csrfToken)
        let open = await client.post("/select", form: [("csrf", token), ("tab", "video"), ("return", "/more")])
        #expect(open.location == "/tabs/video")
        let page = await client.get("/tabs/video")
        #expect(try page.document.first("header a.back-link.back-to-more.only-compact")?.attribute("href") == "/more")
        #expect(try page.document.first("main button.row[name=tab][value=movies]") != nil)
        // More keeps the group's own stack: its child where it was left, after another tab.
        let session = try #require(page.csrfToken)
        let child = await client.post("/select", form: [("csrf", session), ("tab", "tv"), ("return", "/tabs/video")])
        #expect(child.location == "/tabs/tv")
        await #expect(client.get("/tabs/tv").status == 200)
        await #expect(
            client.post("/select", form: [("csrf", session), ("tab", "featured")]).location == "/tabs/featured")
        let reopened = await client.post("/more/open", form: [("csrf", session), ("return", "/tabs/featured")])
        #expect(reopened.location == "/tabs/tv", "More shows the group's child again")
        await #expect(client.get("/").location == "/tabs/tv")
        // A tap on More while the group's child shows pops More to its list.
        let popped = await client.post("/more/open", form: [("csrf", session), ("return", "/tabs/tv")])
        #expect(popped.location == "/more")
        await #expect(client.get("/more").status == 200)
        await #expect(
            client.post("/select", form: [("csrf", session), ("tab", "featured")]).location == "/tabs/featured")
        let list = await client.post("/more/open", form: [("csrf", session), ("return", "/tabs/featured")])
        #expect(list.location == "/more", "popped: More shows its list")
    }
}
