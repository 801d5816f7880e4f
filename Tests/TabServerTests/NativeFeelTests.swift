// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTabBar
import TabServerTesting
import Testing

/// Feels native on every width: the server side of each defect.
@Suite("Feels native: More, confirmation, history, prefetch, translations (in-process)")
struct NativeFeelTests {
    @Test("a prefetch never changes the session", arguments: ["Sec-Purpose", "Purpose"])
    func prefetchChangesNothing(header: String) async throws {
        let client = TestClient(try makeApp().responder)
        await #expect(client.get("/tabs/music/albums/2").status == 200)
        let prefetched = await client.get("/tabs/movies", headers: [(header, "prefetch")])
        #expect(prefetched.status == 200)
        await #expect(client.get("/").location == "/tabs/music/albums/2")
    }

    @Test("a confirmation asked from More is asked on More, with Confirm and Cancel, and survives a reload")
    func confirmationWhereTheTapHappened() async throws {
        let client = TestClient(try makeApp().responder)
        client.defaultHeaders = [("Accept-Language", "de")]
        let more = await client.get("/more")
        let token = try #require(more.csrfToken)
        // More's list posts its rows to /select saying where the tap happened.
        let list = try #require(try more.document.first("main form.more-list[method=post][action='/select']"))
        #expect(try list.first("input[type=hidden][name=return]")?.attribute("value") == "/more")
        let refused = await client.post("/select", form: [("csrf", token), ("tab", "purchased"), ("return", "/more")])
        #expect(refused.status == 303)
        #expect(refused.location == "/more?confirm=purchased")
        for _ in 0..<2 {  // a reload asks again
            let question = await client.follow(refused)
            #expect(question.status == 200)
            #expect(question.body.contains("Bestellverlauf"))
            let notice = try #require(try question.document.first("main .notice[role=status]"))
            #expect(try notice.first("form input[type=hidden][name=confirmed]")?.attribute("value") == "1")
            #expect(try notice.first("form a.button.notice-cancel")?.attribute("href") == "/more")
        }
        // An outside return path is never followed.
        let outside = await client.post(
            "/select", form: [("csrf", token), ("tab", "purchased"), ("return", "//evil.example/")])
        #expect(outside.location?.hasPrefix("/tabs/") == true)
    }

    @Test("More opens a tab at its remembered place, even the selected one")
    func moreOpensTheRememberedPlace() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/podcasts/shows/1")
        #expect(page.status == 200)
        let token = try #require(page.csrfToken)
        let fromMore = await client.post("/select", form: [("csrf", token), ("tab", "podcasts"), ("return", "/more")])
        #expect(fromMore.location == "/tabs/podcasts/shows/1")
        // A root page of a tab that lives in More carries UIKit's "‹ More" back item.
        let root = await client.get("/tabs/podcasts")
        let back = try #require(try root.document.first("header a.back-link[rel=up]"))
        #expect(back.classes == ["back-link", "back-to-more", "only-compact"])
        #expect(back.attribute("href") == "/more")
        let inBar = await client.get("/tabs/music")
        #expect(inBar.status == 200)
        #expect(try inBar.document.select(".back-to-more").isEmpty)
    }

    @Test("re-tapping the current tab at its root adds no history entry (204)")
    func retapAtRootStaysPut() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/music")
        let token = try #require(page.csrfToken)
        let retap = [("csrf", token), ("tab", "music"), ("return", "/tabs/music")]
        await #expect(client.post("/select", form: retap).status == 204)
        await #expect(client.get("/tabs/music/albums/1").status == 200)
        let deeper = [("csrf", token), ("tab", "music"), ("return", "/tabs/music/albums/1")]
        await #expect(client.post("/select", form: deeper).location == "/tabs/music")
    }

    @Test("a re-tap at the root posted by the browser itself (no script) goes to the root again, shown from the top")
    func retapAtRootWithoutScript() async throws {
        let client = TestClient(try makeApp().responder)
        let token = try await #require(client.get("/tabs/music").csrfToken)
        let retap = [("csrf", token), ("tab", "music"), ("return", "/tabs/music")]
        client.defaultHeaders = [("Sec-Fetch-Mode", "navigate")]
        let answer = await client.post("/select", form: retap)
        #expect(answer.status == 303)
        #expect(answer.location == "/tabs/music")
        client.defaultHeaders = [("Sec-Fetch-Mode", "cors")]
        await #expect(client.post("/select", form: retap).status == 204, "the script scrolls up itself")
    }

    @Test("error pages, badges and the dot's label are translated; embedded names isolated")
    func translations() async throws {
        let client = TestClient(try makeApp().responder)
        client.defaultHeaders = [("Accept-Language", "de")]
        let missing = await client.get("/tabs/music/nothing-here")
        #expect(missing.status == 404)
        let error = try #require(try missing.document.first("main .error-page"))
        #expect(try error.first("h2")?.text == "Nicht gefunden")
        #expect(try error.select("bdi").map(\.text).contains("Musik"))
        #expect(!missing.body.contains("There is no such page"))
        let page = await client.get("/tabs/featured")
        #expect(page.barBadges.values.contains("Neu"))
        // The dot's label is part of its item's accessible name.
        let names = try page.document.select("nav.tab-bar button[name=tab] .tab-position-regular").map(\.text)
        #expect(names.contains { $0.contains(", neuer Inhalt") }, "\(names)")
    }

    @Test("the Edit page is titled Edit tabs and has the regular-width arrangement too")
    func editPage() async throws {
        let client = TestClient(try makeApp().responder)
        let edit = await client.get("/more/edit")
        #expect(edit.document.title == "Edit tabs · TabServer Store")
        #expect(try edit.document.first("main .customize-compact") != nil)
        #expect(try edit.document.first("main .customize-regular") != nil)
        let token = try #require(edit.csrfToken)
        let version = try #require(edit.customizeVersion)
        let moved = await client.post(
            "/more/edit", form: [("csrf", token), ("version", version), ("tab", "tv"), ("action", "more")])
        #expect(moved.location == "/more/edit#c-bar-tv")
        // live.js redraws the bar of every open window (this one too) with a prefetch
        // that can arrive before the redirect is followed: it must leave the notice.
        for path in ["/more/edit", "/more", "/tabs/music"] {
            let redraw = await client.get(path, headers: [("Purpose", "prefetch")])
            #expect(redraw.status == 200)
            #expect(!redraw.body.contains("took its place"), "\(path)")
        }
        let after = await client.get("/more/edit")
        // Says what it swapped.
        let notice = try #require(try after.document.first("main [role=status]"))
        #expect(try notice.select("bdi").map(\.text).contains("Podcasts"), "\(notice.text)")
    }

    @Test("appearance: a background image must be a static file; it reaches the page with its hashed URL")
    func backgroundImage() async throws {
        let app = try makeApp()
        var look = TabBarAppearance()
        look.backgroundImage = "icons/nope.png"
        let tabs = [Tab(id: "music", title: "Music", icon: "music.svg")]
        #expect(throws: TabModelError.self) { try app.tabs.replaceModel(TabBarModel(tabs: tabs, appearance: look)) }
        look.backgroundImage = "icons/app.svg"
        look.regularLayout = .sidebar
        try app.tabs.replaceModel(TabBarModel(tabs: tabs, appearance: look))
        let page = await TestClient(app.responder).get("/tabs/music")
        let body = try #require(try page.document.first("body"))
        #expect(body.attribute("style")?.contains("--tab-background-image:url('/icons/app.") == true)
        #expect(body.classes.contains("regular-sidebar"))
    }
}
