// SPDX-License-Identifier: Apache-2.0
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
        #expect(first.body.contains("Video, tab 3 of 5"), "one item among 4 + More")
        #expect(first.body.contains("class=\"tab-item is-group\""))
        let token = try #require(first.csrfToken)
        let open = await client.post(
            "/select", form: [("csrf", token), ("tab", "video"), ("return", "/tabs/featured")])
        #expect(open.status == 303)
        #expect(open.location == "/tabs/video")
        let list = await client.get("/tabs/video")
        #expect(list.status == 200)
        #expect(list.body.contains("<h1 class=\"app-title\" tabindex=\"-1\">Video</h1>"))
        #expect(list.body.contains("name=\"tab\" value=\"tv\" class=\"row\""))
        #expect(list.body.contains("name=\"return\" value=\"/tabs/video\""))
        #expect(
            list.body.contains("name=\"tab\" value=\"video\" class=\"tab is-selected\" aria-current=\"page\""))
        let session = try #require(list.csrfToken)
        let row = await client.post("/select", form: [("csrf", session), ("tab", "tv"), ("return", "/tabs/video")])
        #expect(row.location == "/tabs/tv")
        let child = await client.get("/tabs/tv")
        #expect(child.body.contains("<a class=\"back-link back-to-group\" href=\"/tabs/video\""))
        #expect(
            child.body.contains("name=\"tab\" value=\"video\" class=\"tab is-selected\" aria-current=\"page\""),
            "the group's item is the selected one while its child shows")
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
        #expect(edit.body.contains("id=\"g-up-tv\""))
        #expect(edit.body.contains("id=\"group-heading-video\""))
        let token = try #require(edit.csrfToken)
        let version = try #require(edit.attribute(named: "value", inTagContaining: "name=\"version\""))
        let moved = await client.post(
            "/more/edit",
            form: [("csrf", token), ("version", version), ("tab", "tv"), ("action", "up"), ("view", "g")])
        #expect(moved.status == 303)
        #expect(moved.location == "/more/edit#g-down-tv")
        let list = await client.get("/tabs/video").body
        let tvRow = try #require(list.range(of: "value=\"tv\" class=\"row\""))
        let moviesRow = try #require(list.range(of: "value=\"movies\" class=\"row\""))
        #expect(tvRow.lowerBound < moviesRow.lowerBound, "the list follows the visitor's order")
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
        let after = await client.get("/tabs/video").body
        let tv = try #require(after.range(of: "value=\"tv\" class=\"row\""))
        let movies = try #require(after.range(of: "value=\"movies\" class=\"row\""))
        #expect(movies.lowerBound < tv.lowerBound)
        await #expect(!client.get("/more/edit").body.contains("id=\"g-up-tv\""))
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
        #expect(more.body.contains("name=\"tab\" value=\"video\" class=\"row\""))
        let token = try #require(more.csrfToken)
        let open = await client.post("/select", form: [("csrf", token), ("tab", "video"), ("return", "/more")])
        #expect(open.location == "/tabs/video")
        let page = await client.get("/tabs/video")
        #expect(page.body.contains("class=\"back-link back-to-more only-compact\" href=\"/more\""))
        #expect(page.body.contains("value=\"movies\" class=\"row\""))
    }
}
