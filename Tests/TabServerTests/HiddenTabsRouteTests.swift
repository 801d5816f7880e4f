// SPDX-License-Identifier: Apache-2.0
import TabServerCore
import TabServerTabBar
import TabServerTesting
import Testing

@Suite(
    "Hidden and placed tabs in the pages: Edit hides and shows, placements in the bar, More and sidebar")
struct HiddenTabsRouteTests {
    /// Featured fixed, Music movable, Movies hideable, TV optional (hidden until shown),
    /// Podcasts ordinary, Audiobooks sidebar-only, Purchased pinned.
    static let tabs = """
        {"appearance": {"regularLayout": "sidebar"}, "tabs": [
          {"id": "featured", "title": "Featured", "icon": "featured.svg", "preferredPlacement": "fixed"},
          {"id": "music", "title": "Music", "icon": "music.svg", "preferredPlacement": "movable"},
          {"id": "movies", "title": "Movies", "icon": "movies.svg", "allowsHiding": true},
          {"id": "tv", "title": "TV Shows", "icon": "tv.svg", "preferredPlacement": "optional"},
          {"id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg"},
          {"id": "audiobooks", "title": "Audiobooks", "icon": "audiobooks.svg", "preferredPlacement": "sidebarOnly"},
          {"id": "purchased", "title": "Purchased", "icon": "purchased.svg", "preferredPlacement": "pinned"}
        ]}
        """

    func app(_ text: String = Self.tabs) throws -> (Application, String) {
        let path = TestFixtures.temporaryDirectory("placed-tabs") + "/tabs.json"
        TestFixtures.write(text, to: path)
        return (try makeApp { $0.tabsFile = path }, path)
    }

    static func version(_ page: TestResponse) -> String? {
        page.attribute(named: "value", inTagContaining: "name=\"version\"")
    }

    @Test("the bar: TV hidden, Audiobooks only in the sidebar, Purchased pinned after More")
    func bar() async throws {
        let client = TestClient(try app().0.responder)
        let page = await client.get("/tabs/featured")
        #expect(page.barTabIDs == ["featured", "music", "movies", "podcasts", "audiobooks", "purchased"])
        #expect(page.body.contains("tab-item in-more-compact in-more-regular is-sidebar-only"))
        #expect(page.body.contains("is-pinned"))
        #expect(!page.body.contains("has-more-compact"), "four tabs and a pinned one fit a phone")
        await #expect(client.get("/tabs/tv").status == 404, "a hidden tab has no pages")
        await #expect(client.get("/tabs/audiobooks").status == 200, "a sidebar-only tab has")
        // The pinned tab comes after More in the markup, as on screen.
        let bar = try #require(page.section(from: "<nav class=\"tab-bar", to: "</nav>"))
        let more = try #require(bar.range(of: "tab-item tab-more"))
        let pinned = try #require(bar.range(of: "value=\"purchased\""))
        #expect(more.lowerBound < pinned.lowerBound)
    }

    @Test("Edit lists hideable tabs with Hide and hidden ones with Show; both are plain posts answered with 303")
    func hideAndShow() async throws {
        let client = TestClient(try app().0.responder)
        let edit = await client.get("/more/edit")
        #expect(edit.body.contains("id=\"c-hide-movies\""))
        #expect(!edit.body.contains("c-hide-featured") && !edit.body.contains("c-hide-music"))
        #expect(!edit.body.contains("c-hide-purchased"))
        #expect(edit.body.contains("id=\"show-tv\""))
        #expect(edit.body.contains("Pinned at the end"))
        #expect(edit.body.contains("Only in the sidebar"))
        let token = try #require(edit.csrfToken)
        let version = try #require(Self.version(edit))
        let shown = await client.post(
            "/more/edit", form: [("csrf", token), ("action", "show"), ("tab", "tv"), ("version", version)])
        #expect(shown.status == 303)
        #expect(shown.location == "/more/edit#c-row-tv")
        let after = await client.get("/more/edit")
        #expect(after.body.contains("TV Shows</bdi> is shown again."))
        #expect(!after.body.contains("id=\"show-tv\""))
        let page = await client.get("/tabs/tv")
        #expect(page.status == 200)
        #expect(page.body.contains("has-more-compact"), "five tabs and a pinned one: 3 + More + Purchased on a phone")
        let hidden = await client.post(
            "/more/edit",
            form: [
                ("csrf", token), ("action", "hide"), ("tab", "movies"), ("version", try #require(Self.version(after))),
            ])
        #expect(hidden.status == 303)
        #expect(hidden.location == "/more/edit#show-movies")
        await #expect(client.get("/more/edit").body.contains("Movies</bdi> is hidden."))
        await #expect(!client.get("/tabs/featured").barTabIDs.contains("movies"))
        // Reset brings the model's default back: Movies shown, TV hidden.
        let reset = await client.post(
            "/more/edit",
            form: [
                ("csrf", token), ("action", "reset"), ("version", try #require(Self.version(client.get("/more/edit")))),
            ])
        #expect(reset.status == 303)
        await #expect(
            client.get("/tabs/featured").barTabIDs == [
                "featured", "music", "movies", "podcasts", "audiobooks", "purchased",
            ])
    }

    @Test("bad input changes nothing: unknown ids and tabs that do not allow hiding 400, no CSRF 403, a stale post 409")
    func badInput() async throws {
        let client = TestClient(try app().0.responder)
        let edit = await client.get("/more/edit")
        let token = try #require(edit.csrfToken)
        let version = try #require(Self.version(edit))
        func post(_ action: String, _ tab: String, csrf: String? = nil, version v: String? = nil) async -> TestResponse
        {
            await client.post(
                "/more/edit",
                form: [("csrf", csrf ?? token), ("action", action), ("tab", tab), ("version", v ?? version)])
        }
        let unknown = await post("hide", "ghost")
        #expect(unknown.status == 400)
        #expect(unknown.body.contains("ghost"))
        let fixed = await post("hide", "featured")
        #expect(fixed.status == 400)
        #expect(fixed.body.contains("does not allow hiding"))
        await #expect(post("hide", "purchased").status == 400)
        await #expect(post("hide", "audiobooks").status == 400)
        let already = await post("show", "movies")
        #expect(already.status == 400)
        #expect(already.body.contains("already shown"))
        await #expect(post("hide", "movies", csrf: "forged").status == 403)
        await #expect(post("hide", "movies", version: "0000000000000000").status == 409)
        await #expect(client.get("/tabs/featured").barTabIDs.contains("movies"), "nothing was hidden")
        // Two windows: one hides Movies, the other (its page from before) tries to show TV.
        await #expect(post("hide", "movies").status == 303)
        let stale = await post("show", "tv")
        #expect(stale.status == 409)
        #expect(stale.body.contains("id=\"show-movies\""), "the answer shows the arrangement as it is")
        await #expect(client.get("/tabs/tv").status == 404, "TV stays hidden")
        // Selecting a hidden tab is refused too.
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 400)
    }

    @Test("a model change reconciles every session: unknown ids dropped, tabs that no longer allow hiding shown")
    func reload() async throws {
        let (app, path) = try app()
        let alice = TestClient(app.responder)
        let bob = TestClient(app.responder)
        for client in [alice, bob] {
            let edit = await client.get("/more/edit")
            let token = try #require(edit.csrfToken)
            await #expect(
                client.post(
                    "/more/edit",
                    form: [
                        ("csrf", token), ("action", "hide"), ("tab", "movies"),
                        ("version", try #require(Self.version(edit))),
                    ]
                ).status == 303)
        }
        await #expect(alice.get("/tabs/movies").status == 404)
        // Movies no longer allows hiding; TV is gone.
        TestFixtures.write(
            Self.tabs.replacingOccurrences(of: #", "allowsHiding": true"#, with: "")
                .replacingOccurrences(
                    of: #"{"id": "tv", "title": "TV Shows", "icon": "tv.svg", "preferredPlacement": "optional"},"#,
                    with: ""),
            to: path)
        #expect(app.reloadTabs() == nil)
        for client in [alice, bob] {
            let page = await client.get("/tabs/featured")
            #expect(page.barTabIDs == ["featured", "music", "movies", "podcasts", "audiobooks", "purchased"])
            await #expect(client.get("/tabs/movies").status == 200)
            await #expect(!client.get("/more/edit").body.contains("hidden-heading"), "no hidden tabs left")
        }
    }
}
