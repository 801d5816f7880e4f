// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
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

    static func version(_ page: TestResponse) -> String? { page.customizeVersion }

    /// The tabs of the bar's items whose `li` matches `selector` (classes, mostly).
    static func tabs(_ bar: HTMLElement, items selector: String) throws -> [String] {
        try bar.select("\(selector) > button[name=tab]").compactMap { $0.attribute("value") }
    }

    /// The text of the page's one-shot notice, and the names it isolates.
    static func notice(_ page: TestResponse) throws -> (text: String, names: [String])? {
        guard let notice = try page.document.first("main .notice[role=status]") else { return nil }
        return (notice.text, try notice.select("bdi").map(\.text))
    }

    @Test("the bar: TV hidden, Audiobooks only in the sidebar, Purchased pinned after More")
    func bar() async throws {
        let client = TestClient(try app().0.responder)
        let page = await client.get("/tabs/featured")
        #expect(page.barTabIDs == ["featured", "music", "movies", "podcasts", "audiobooks", "purchased"])
        let bar = try #require(try page.document.first("nav.tab-bar"))
        #expect(
            try Self.tabs(bar, items: "li.tab-item.in-more-compact.in-more-regular.is-sidebar-only") == ["audiobooks"])
        #expect(try Self.tabs(bar, items: "li.tab-item.is-pinned") == ["purchased"])
        #expect(!bar.classes.contains("has-more-compact"), "four tabs and a pinned one fit a phone")
        await #expect(client.get("/tabs/tv").status == 404, "a hidden tab has no pages")
        await #expect(client.get("/tabs/audiobooks").status == 200, "a sidebar-only tab has")
        // The pinned tab comes after More in the markup, as on screen.
        let order = try bar.select("li.tab-more, button[name=tab]").map { $0.attribute("value") ?? "more" }
        let more = try #require(order.firstIndex(of: "more"), "\(order)")
        let pinned = try #require(order.firstIndex(of: "purchased"), "\(order)")
        #expect(more < pinned)
    }

    @Test("Edit lists hideable tabs with Hide and hidden ones with Show; both are plain posts answered with 303")
    func hideAndShow() async throws {
        let client = TestClient(try app().0.responder)
        let edit = await client.get("/more/edit")
        let document = edit.document
        // Hide only on Movies' rows (the only tab that allows hiding); Show for TV, hidden.
        #expect(try document.first("button#c-hide-movies[name=action][value=hide]") != nil)
        #expect(
            Set(try document.select("form.row-hide input[name=tab]").compactMap { $0.attribute("value") }) == ["movies"]
        )
        #expect(try document.first(".customize-hidden button#show-tv[name=action][value=show]") != nil)
        let subtitles = try document.select(".customize-row .row-subtitle").map(\.text)
        #expect(subtitles.contains("Pinned at the end"), "\(subtitles)")
        let sidebar = try #require(try document.first(".customize-sidebar"))
        #expect(try sidebar.first("h2")?.text == "Only in the sidebar")
        #expect(try sidebar.select("li.customize-row").map { $0.attribute("data-tab") } == ["audiobooks"])
        let token = try #require(edit.csrfToken)
        let version = try #require(Self.version(edit))
        let shown = await client.post(
            "/more/edit", form: [("csrf", token), ("action", "show"), ("tab", "tv"), ("version", version)])
        #expect(shown.status == 303)
        #expect(shown.location == "/more/edit#c-row-tv")
        let after = await client.get("/more/edit")
        let shownNotice = try #require(try Self.notice(after))
        #expect(shownNotice.text == "TV Shows is shown again.")
        #expect(shownNotice.names == ["TV Shows"])
        #expect(try after.document.first("#show-tv") == nil)
        let page = await client.get("/tabs/tv")
        #expect(page.status == 200)
        #expect(
            try page.document.first("nav.tab-bar.has-more-compact") != nil,
            "five tabs and a pinned one: 3 + More + Purchased on a phone")
        let hidden = await client.post(
            "/more/edit",
            form: [
                ("csrf", token), ("action", "hide"), ("tab", "movies"), ("version", try #require(Self.version(after))),
            ])
        #expect(hidden.status == 303)
        #expect(hidden.location == "/more/edit#show-movies")
        let hiddenNotice = try await #require(try Self.notice(client.get("/more/edit")))
        #expect(hiddenNotice.text == "Movies is hidden.")
        #expect(hiddenNotice.names == ["Movies"])
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
        #expect(
            try stale.document.first(".customize-hidden button#show-movies") != nil,
            "the answer shows the arrangement as it is")
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
            let edit = await client.get("/more/edit")
            #expect(try edit.document.first("main .customize-compact") != nil)
            #expect(try edit.document.select(".customize-hidden, #hidden-heading").isEmpty, "no hidden tabs left")
        }
    }
}
