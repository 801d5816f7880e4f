// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTabBar
import TabServerTesting
import Testing

@testable import TabServerCommand

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
        let document = page.document
        #expect(document.title == "Music · TabServer Store")
        #expect(try document.first("main")?.text.contains("Northern Lights") == true)
        let bar = try #require(try document.first("nav.tab-bar"))
        #expect(bar.classes.contains("has-more-compact"))
        #expect(bar.attribute("aria-label") == "Tab bar")
        #expect(try bar.first("button[value=music] .tab-position-regular")?.text == "Music, tab 2 of 7")
        // The nav landmark comes after main, and the bar is a form of submit buttons.
        #expect(try document.select("main, nav").map(\.name) == ["main", "nav"])
        let form = try #require(try bar.first("form"))
        #expect(form.attribute("method") == "post")
        #expect(form.attribute("action") == "/select")
        #expect(try form.select("button[type=submit][name=tab]").count == 7)
    }

    @Test("badges appear in the bar and in the item's accessible name")
    func badges() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        // Music's item shows its badge, 3, hidden from assistive technology, which reads
        // it in the item's name instead, in both layouts' counts.
        let music = try #require(try page.document.first("nav.tab-bar button[name=tab][value=music]"))
        let badge = try #require(try music.first(".tab-badge"))
        #expect(badge.classes == ["tab-badge"])
        #expect(badge.attribute("data-count") == "3")
        #expect(badge.attribute("aria-hidden") == "true")
        #expect(badge.text == "3")
        #expect(try music.first(".tab-position-compact")?.text == "Music, 3, tab 2 of 5", "\(music)")
        #expect(try music.first(".tab-position-regular")?.text == "Music, 3, tab 2 of 7", "\(music)")
        #expect(try !page.document.select("nav.tab-bar button[name=tab] .tab-badge.is-dot").isEmpty)
        #expect(page.barBadges.values.contains("New"))
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
        #expect(try track.document.first("header a.back-link[rel=up]")?.attribute("href") == "/tabs/music/albums/2")
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
        // The question is the page's notice; its form selects Purchased again, confirmed.
        let notice = try #require(try back.document.first("main .notice[role=status]"))
        #expect(try notice.first("p")?.text == "Purchased shows your order history. Open it?")
        let confirm = try #require(try notice.first("form[method=post][action='/select']"))
        #expect(try confirm.first("input[type=hidden][name=confirmed]")?.attribute("value") == "1")
        #expect(try confirm.first("button[type=submit][name=tab]")?.attribute("value") == "purchased")
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
        #expect(page.barBadges["music"] == "3")
        _ = await visitor.post("/select", form: [("csrf", page.csrfToken!), ("tab", "music")])
        let cleared = await visitor.get("/tabs/featured")
        #expect(cleared.barTabIDs.contains("music"))
        #expect(cleared.barBadges["music"] == nil)
        await #expect(other.get("/tabs/featured").barBadges["music"] == "3")
        // Opening the tab's page (a visit) clears it too: the page shows what the badge announced.
        let visited = await other.get("/tabs/music")
        #expect(visited.currentTabID == "music")
        #expect(visited.barBadges["music"] == nil)
    }

    @Test("unknown tabs and pages are 404 pages that still show the bar")
    func notFound() async throws {
        let client = TestClient(try makeApp().responder)
        for path in ["/tabs/nope", "/tabs/music/albums/99", "/tabs/music/albums/02", "/tabs/music/x/y/z", "/nowhere"] {
            let page = await client.get(path)
            #expect(page.status == 404, "\(path)")
            #expect(try page.document.first("nav.tab-bar") != nil, "\(path)")
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
        let css = try #require(try page.document.first("head link[rel=stylesheet]")?.attribute("href"))
        #expect(css.hasPrefix("/css/app.css?v="))
        let asset = await client.get(css)
        #expect(asset.status == 200)
        #expect(asset.headers["cache-control"]?.contains("immutable") == true)
    }

    @Test("the page preloads the bar's icons as CORS fetches (how CSS masks fetch them); More's wait for its list")
    func iconPreloads() async throws {
        let client = TestClient(try makeApp().responder)
        func preloads(_ path: String) async throws -> [HTMLElement] {
            try await client.get(path).document.select("head link[rel=preload]")
        }
        func preload(of icon: String, in links: [HTMLElement]) -> HTMLElement? {
            links.first { $0.attribute("href")?.hasPrefix("/icons/\(icon).svg?v=") == true }
        }
        // Seven tabs: four in a phone's bar (preloaded for every width), three in More there
        // (preloaded from a regular width on, where the bar shows them).
        let featured = try await preloads("/tabs/featured")
        #expect(featured.count == 7)
        for link in featured {
            #expect(link.attribute("as") == "image", "\(link)")
            #expect(link.attribute("crossorigin") == "", "\(link)")
            #expect(link.attribute("href")?.hasPrefix("/icons/") == true, "\(link)")
        }
        let music = try #require(preload(of: "music", in: featured))
        #expect(!music.hasAttribute("media"))
        let podcasts = try #require(preload(of: "podcasts", in: featured))
        #expect(podcasts.attribute("media") == "(min-width: 768px)")
        // On More the phone's list shows them: every width preloads them.
        let onMore = try await preloads("/more")
        #expect(onMore.count == 7)
        #expect(onMore.allSatisfy { !$0.hasAttribute("media") })
    }

    @Test("a page with hidesBottomBar is rendered without the bar; its parent has it")
    func hidesBottomBar() async throws {
        let client = TestClient(try makeApp().responder)
        let player = await client.get("/tabs/music/albums/1/play")
        #expect(player.status == 200)
        let document = player.document
        #expect(try document.select("nav.tab-bar").isEmpty)
        #expect(try document.first("body")?.classes.contains("hides-bar") == true)
        #expect(try document.first("header a.back-link[rel=up]")?.attribute("href") == "/tabs/music/albums/1")
        await #expect(try client.get("/tabs/music/albums/1").document.first("nav.tab-bar") != nil)
    }

    @Test("each item reads its place among the items on screen: 4 + More on a phone, all at regular width")
    func positions() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        let bar = try #require(try page.document.first("nav.tab-bar"))
        #expect(try bar.first("button[value=music] .tab-position-compact")?.text == "Music, 3, tab 2 of 5")
        #expect(try bar.first("button[value=music] .tab-position-regular")?.text == "Music, 3, tab 2 of 7")
        #expect(try bar.first("li.tab-more .tab-position-compact")?.text == "More, tab 5 of 5")
        #expect(!page.body.contains(" ,"), "no space before a comma")
        // The search tab of the tests' eight-tab model comes after More, in the markup as on screen.
        let eight = try buildApplication(
            TestFixtures.configuration(), content: DemoCatalog(), hooks: demoHooks(), log: quietLog)
        let eightBar = try #require(
            try await TestClient(eight.responder).get("/tabs/music").document.first("nav.tab-bar"))
        let compact = try eightBar.select(".tab-position-compact").map(\.text)
        let more = try #require(compact.firstIndex(of: "More, tab 4 of 5"), "\(compact)")
        let search = try #require(compact.firstIndex(of: "Search, tab 5 of 5"), "\(compact)")
        #expect(more < search)
        #expect(try eightBar.first("li.is-search .tab-position-regular")?.text == "Search, tab 8 of 8")
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
        #expect(try await app.setBadge(.badge(.text("Sale", color: "#34c759")), forTab: "movies", visitor: id))
        let page = await alice.get("/tabs/featured")
        let sale = try #require(try page.document.first("nav.tab-bar button[name=tab][value=movies] .tab-badge"))
        #expect(sale.text == "Sale")
        #expect(sale.attribute("style") == "--badge-color:#34c759")
        #expect(sale.attribute("aria-hidden") == "true")
        let bobs = await bob.get("/tabs/featured")
        #expect(bobs.barTabIDs.contains("movies") && !bobs.barBadges.values.contains("Sale"))
        #expect(try await app.setBadge(.hidden, forTab: "music", visitor: id))
        let hidden = await alice.get("/tabs/featured")
        #expect(hidden.barTabIDs.contains("music") && hidden.barBadges["music"] == nil)
        #expect(try await app.setBadge(nil, forTab: "movies", visitor: id))
        let removed = await alice.get("/tabs/featured")
        #expect(removed.barTabIDs.contains("movies") && !removed.barBadges.values.contains("Sale"))
        #expect(try await app.setBadge(.hidden, forTab: "music", visitor: .generate()) == false, "unknown visitor")
    }
}
