// SPDX-License-Identifier: Apache-2.0
import TabServerCore
import TabServerDemo
import TabServerSessions
import TabServerTabBar
import TabServerTesting
import Testing

@Suite("Pages, selection and per-tab navigation (in-process)")
struct NavigationTests {
    @Test("a new visitor is sent to the first tab, with no cookie until there is something to remember")
    func firstVisit() async throws {
        let client = TestClient(try makeApp().responder)
        let response = await client.get("/")
        #expect(response.status == 303)
        #expect(response.location == "/tabs/featured")
        #expect(response.headers["set-cookie"] == nil)
        let cookie = try await #require(client.get("/tabs/music").headers["set-cookie"])
        #expect(cookie.hasPrefix("tabserver_session="))
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Lax"))
        #expect(cookie.contains("Path=/"))
        #expect(!cookie.contains("Secure"))
    }

    @Test("a tab page shows the bar in model order with the selected item marked")
    func tabPage() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/music")
        #expect(page.status == 200)
        #expect(page.headers["content-type"] == "text/html; charset=utf-8")
        #expect(page.barTabIDs == ["featured", "music", "movies", "tv", "podcasts", "audiobooks", "purchased"])
        #expect(page.currentTabID == "music")
        #expect(page.body.contains("<title>Music · TabServer Store</title>"))
        #expect(page.body.contains("Northern Lights"))
        #expect(page.body.contains("has-more-compact"))
        #expect(page.body.contains("<nav class=\"tab-bar"))
        #expect(page.body.contains("aria-label=\"Tab bar\""))
        #expect(page.body.contains(", tab 2 of 7"))
        // The nav landmark comes after main, and the bar is a form of submit buttons.
        let mainIndex = try #require(page.body.range(of: "<main"))
        let navIndex = try #require(page.body.range(of: "<nav"))
        #expect(mainIndex.lowerBound < navIndex.lowerBound)
        #expect(page.body.contains("<form method=\"post\" action=\"/select\">"))
    }

    @Test("badges appear in the bar and in the item's accessible name")
    func badges() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        #expect(page.body.contains("<span class=\"tab-badge\" data-count=\"3\" aria-hidden=\"true\">3</span>"))
        // Music's item (its badge is 3) names it with the badge, in both layouts' counts.
        let music = try #require(page.section(from: "value=\"music\"", to: "</button>"))
        #expect(music.contains("<span class=\"tab-badge\" data-count=\"3\" aria-hidden=\"true\">3</span>"))
        #expect(music.contains(">Music, 3, tab 2 of 5</span>"), "\(music)")
        #expect(music.contains(">Music, 3, tab 2 of 7</span>"), "\(music)")
        #expect(page.body.contains("tab-badge is-dot"))
        #expect(page.body.contains(">New</span>"))
    }

    @Test("selecting a tab answers 303 to it, and GET / then restores it")
    func select() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        let token = try #require(page.csrfToken)
        let selected = await client.post("/select", form: [("csrf", token), ("tab", "movies")])
        #expect(selected.status == 303)
        #expect(selected.location == "/tabs/movies")
        let movies = await client.follow(selected)
        #expect(movies.currentTabID == "movies")
        await #expect(client.get("/").location == "/tabs/movies")
    }

    @Test("each tab remembers its location; re-selecting the selected tab pops to its root")
    func perTabStacks() async throws {
        let client = TestClient(try makeApp().responder)
        let track = await client.get("/tabs/music/albums/2/tracks/3")
        #expect(track.status == 200)
        #expect(track.body.contains("Sodium"))
        // The back link goes up this tab's stack.
        #expect(track.attribute(named: "href", inTagContaining: "class=\"back-link\"") == "/tabs/music/albums/2")
        let token = try #require(track.csrfToken)
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).location == "/tabs/tv")
        await #expect(client.get("/tabs/tv/shows/1").status == 200)
        await #expect(
            client.post("/select", form: [("csrf", token), ("tab", "music")]).location
                == "/tabs/music/albums/2/tracks/3")
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).location == "/tabs/tv/shows/1")
        // Re-tap: to the root, and the location is forgotten.
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).location == "/tabs/tv")
        await #expect(
            client.post("/select", form: [("csrf", token), ("tab", "music")]).location
                == "/tabs/music/albums/2/tracks/3")
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).location == "/tabs/tv")
    }

    @Test("a vetoed selection changes nothing and explains; confirming goes through")
    func veto() async throws {
        let recorder = HookRecorder()
        let client = TestClient(try makeApp(hooks: recorder.hooks()).responder)
        let page = await client.get("/tabs/music/albums/1")
        let token = try #require(page.csrfToken)
        let refused = await client.post("/select", form: [("csrf", token), ("tab", "purchased")])
        #expect(refused.status == 303)
        // The question is asked where the tap happened (its own URL, so a reload asks again).
        #expect(refused.location == "/tabs/music/albums/1?confirm=purchased")
        let back = await client.follow(refused)
        #expect(back.currentTabID == "music")
        #expect(back.body.contains("Purchased shows your order history. Open it?"))
        #expect(back.body.contains("name=\"confirmed\" value=\"1\""))
        #expect(recorder.all.contains("shouldSelect purchased"))
        #expect(!recorder.all.contains("didSelect purchased"))
        // Only the question's URL asks it.
        await #expect(!client.get("/tabs/music").body.contains("Open it?"))
        let confirmed = await client.post("/select", form: [("csrf", token), ("tab", "purchased"), ("confirmed", "1")])
        #expect(confirmed.location == "/tabs/purchased")
        #expect(recorder.all.contains("didSelect purchased"))
    }

    @Test("a tab that clears its badge on selection clears it for that visitor only")
    func badgeClears() async throws {
        let app = try makeApp()
        let visitor = TestClient(app.responder)
        let other = TestClient(app.responder)
        let page = await visitor.get("/tabs/featured")
        _ = await visitor.post("/select", form: [("csrf", page.csrfToken!), ("tab", "music")])
        await #expect(!visitor.get("/tabs/featured").body.contains("aria-hidden=\"true\">3</span>"))
        await #expect(other.get("/tabs/featured").body.contains("aria-hidden=\"true\">3</span>"))
        // Opening the tab's page (a visit) clears it too: the page shows what the badge announced.
        await #expect(!other.get("/tabs/music").body.contains("aria-hidden=\"true\">3</span>"))
    }

    @Test("unknown tabs and pages are 404 pages that still show the bar")
    func notFound() async throws {
        let client = TestClient(try makeApp().responder)
        for path in ["/tabs/nope", "/tabs/music/albums/99", "/tabs/music/albums/02", "/tabs/music/x/y/z", "/nowhere"] {
            let page = await client.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(page.body.contains("<nav class=\"tab-bar"), "\(path)")
            #expect(page.barTabIDs.count == 7, "\(path)")
        }
    }

    @Test("a wrong method on a page is a 405 with Allow")
    func methodNotAllowed() async throws {
        let client = TestClient(try makeApp().responder)
        let response = await client.send(.delete, "/tabs/music")
        #expect(response.status == 405)
        #expect(response.headers["allow"] == "GET, HEAD, POST", "POST runs a tab's actions")
        // A post where the content declares no action, though a page is there: 405 too.
        let page = await client.get("/tabs/music")
        let posted = await client.post("/tabs/music", form: [("csrf", page.csrfToken ?? "")])
        #expect(posted.status == 405)
        #expect(posted.headers["allow"] == "GET, HEAD")
        await #expect(client.send(.get, "/select").headers["allow"] == "POST")
    }

    @Test("health and readiness answer 200")
    func health() async throws {
        let client = TestClient(try makeApp().responder)
        await #expect(client.get("/healthz").status == 200)
        await #expect(client.get("/readyz").status == 200)
        #expect(client.cookies.isEmpty, "probes must not create sessions")
    }

    @Test("static files are served from memory, and nothing outside Public/")
    func staticFiles() async throws {
        let client = TestClient(try makeApp().responder)
        let css = await client.get("/css/app.css", headers: [("Accept-Encoding", "gzip")])
        #expect(css.status == 200)
        #expect(css.headers["content-encoding"] == "gzip")
        #expect(css.headers["vary"] == "Accept-Encoding")
        let etag = try #require(css.headers["etag"])
        await #expect(
            client.get("/css/app.css", headers: [("Accept-Encoding", "gzip"), ("If-None-Match", etag)]).status == 304)
        await #expect(client.get("/icons/music.svg").headers["content-type"] == "image/svg+xml")
        await #expect(client.get("/manifest.webmanifest").headers["content-type"] == "application/manifest+json")
        for path in [
            "/../tabs.json", "/css/../../Package.swift", "/%2e%2e/tabs.json", "/.gitignore", "/css/app.css%00.png",
        ] {
            await #expect(client.get(path).status == 404, "\(path)")
        }
    }

    @Test("the page links assets with content hashes")
    func assetURLs() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        let css = try #require(page.attribute(named: "href", inTagContaining: "rel=\"stylesheet\""))
        #expect(css.hasPrefix("/css/app.css?v="))
        let asset = await client.get(css)
        #expect(asset.status == 200)
        #expect(asset.headers["cache-control"]?.contains("immutable") == true)
    }

    @Test("the page preloads the bar's icons as CORS fetches (how CSS masks fetch them); More's wait for its list")
    func iconPreloads() async throws {
        let client = TestClient(try makeApp().responder)
        func preloads(_ path: String) async -> [Substring] {
            await client.get(path).body.split(separator: "\n").filter { $0.hasPrefix("<link rel=\"preload\"") }
        }
        // Seven tabs: four in a phone's bar (preloaded for every width), three in More there
        // (preloaded from a regular width on, where the bar shows them).
        let featured = await preloads("/tabs/featured")
        #expect(featured.count == 7)
        for line in featured {
            #expect(line.contains("as=\"image\" crossorigin"), "\(line)")
            #expect(line.contains("href=\"/icons/"), "\(line)")
        }
        let music = try #require(featured.first { $0.contains("/icons/music.svg?v=") })
        #expect(!music.contains("media="))
        let podcasts = try #require(featured.first { $0.contains("/icons/podcasts.svg?v=") })
        #expect(podcasts.contains("media=\"(min-width: 768px)\""))
        // On More the phone's list shows them: every width preloads them.
        await #expect(preloads("/more").filter { $0.contains("media=") }.isEmpty)
        await #expect(preloads("/more").count == 7)
    }

    @Test("a page with hidesBottomBar is rendered without the bar; its parent has it")
    func hidesBottomBar() async throws {
        let client = TestClient(try makeApp().responder)
        let player = await client.get("/tabs/music/albums/1/play")
        #expect(player.status == 200)
        #expect(!player.body.contains("<nav class=\"tab-bar"))
        #expect(player.body.contains("class=\"hides-bar "))
        #expect(player.attribute(named: "href", inTagContaining: "class=\"back-link\"") == "/tabs/music/albums/1")
        await #expect(client.get("/tabs/music/albums/1").body.contains("<nav class=\"tab-bar"))
    }

    @Test("each item reads its place among the items on screen: 4 + More on a phone, all at regular width")
    func positions() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        #expect(page.body.contains("tab-position-compact\">Music, 3, tab 2 of 5</span>"))
        #expect(page.body.contains("tab-position-regular\">Music, 3, tab 2 of 7</span>"))
        #expect(page.body.contains("tab-position-compact\">More, tab 5 of 5</span>"))
        #expect(!page.body.contains(" ,"), "no space before a comma")
        // The search tab of the tests' eight-tab model comes after More, in the markup as on screen.
        let eight = try buildApplication(
            TestFixtures.configuration(), content: DemoCatalog(), hooks: demoHooks(), log: quietLog)
        let body = await TestClient(eight.responder).get("/tabs/music").body
        let more = try #require(body.range(of: "tab-position-compact\">More, tab 4 of 5</span>"))
        let search = try #require(body.range(of: "tab-position-compact\">Search, tab 5 of 5</span>"))
        #expect(more.lowerBound < search.lowerBound)
        #expect(body.contains("tab-position-regular\">Search, tab 8 of 8</span>"))
    }
}

@Suite("Per-visitor badges through the Swift API")
struct VisitorBadgeTests {
    @Test("a badge set for one visitor shows for that visitor only, and can be removed")
    func perVisitor() async throws {
        let app = try makeApp()
        let alice = TestClient(app.responder)
        let bob = TestClient(app.responder)
        // Opening the editor is something to remember, so Alice gets a stored session (an id).
        _ = await alice.get("/more/edit")
        _ = await bob.get("/tabs/featured")
        #expect(bob.cookies.isEmpty, "nothing to remember: no session, no cookie")
        let cookie = try #require(alice.cookies["tabserver_session"])
        let id = try #require(SessionID(cookieValue: cookie))
        #expect(try app.setBadge(.badge(.text("Sale", color: "#34c759")), forTab: "movies", visitor: id))
        let page = await alice.get("/tabs/featured")
        #expect(page.body.contains("style=\"--badge-color:#34c759\" aria-hidden=\"true\">Sale</span>"))
        await #expect(!bob.get("/tabs/featured").body.contains(">Sale</span>"))
        #expect(try app.setBadge(.hidden, forTab: "music", visitor: id))
        await #expect(!alice.get("/tabs/featured").body.contains("aria-hidden=\"true\">3</span>"))
        #expect(try app.setBadge(nil, forTab: "movies", visitor: id))
        await #expect(!alice.get("/tabs/featured").body.contains(">Sale</span>"))
        #expect(try app.setBadge(.hidden, forTab: "music", visitor: .generate()) == false, "unknown visitor")
    }
}
