// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

/// A location that does not exist inside a tab is that tab's 404: its bar shows the tab
/// the visitor asked for, and nothing of theirs changes.
@Suite("Not found inside a tab")
struct NotFoundInTabTests {
    @Test("a 404 under /tabs/movies/… shows Movies selected; the visitor's selection stays on Music")
    func notFoundKeepsTheTab() async throws {
        let client = TestClient(try makeApp().responder)
        let music = await client.get("/tabs/music")
        #expect(music.status == 200)
        #expect(music.currentTabID == "music")
        let missing = await client.get("/tabs/movies/no/such/page")
        #expect(missing.status == 404)
        #expect(missing.currentTabID == "movies", "the 404's bar shows the tab it is under")
        // The visitor is still on Music: the 404 changed nothing of theirs.
        let home = await client.get("/")
        #expect(home.location == "/tabs/music")
        #expect(await client.get("/tabs/music").currentTabID == "music")
    }

    @Test("the same for an app's own tabs: a path no page of the tab matches is that tab's 404")
    func notFoundInAnAppsTab() async throws {
        let app = Application(configuration: sevenTabConfiguration())
        app.tab("music") { music in music.page { _, _ in TabPage(title: "Music", context: [:]) } }
        app.tab("movies") { movies in
            movies.page { _, _ in TabPage(title: "Movies", context: [:]) }
            movies.page("{id}") { _, context in
                try context.parameters.require("id", as: Int.self) == 1 ? TabPage(title: "One", context: [:]) : nil
            }
        }
        let client = try TestClient(app)
        #expect(await client.get("/tabs/music").currentTabID == "music")
        for path in ["/tabs/movies/2", "/tabs/movies/1/extra"] {
            let missing = await client.get(path)
            #expect(missing.status == 404, "\(path)")
            #expect(missing.currentTabID == "movies", "\(path)")
        }
        #expect(await client.get("/").location == "/tabs/music")
    }

    @Test("a tab's pages are matched as the router's routes are: the most specific, then the first declared")
    func mostSpecificThenFirst() async throws {
        let app = Application(configuration: sevenTabConfiguration())
        app.tab("music") { music in music.page { _, _ in TabPage(title: "Music", context: [:]) } }
        app.tab("movies") { movies in
            movies.page("{id}") { _, context in TabPage(title: "Item \(context.parameters["id"] ?? "")", context: [:]) }
            movies.page("new") { _, _ in TabPage(title: "New movie", context: [:]) }
            movies.page("{id}") { _, _ in TabPage(title: "Declared second", context: [:]) }
            movies.page("{id}/{rest*}") { _, _ in TabPage(title: "Below an item", context: [:]) }
        }
        let client = try TestClient(app)
        let new = await client.get("/tabs/movies/new")
        #expect(new.body.contains("New movie"), "a literal beats a parameter declared before it")
        let item = await client.get("/tabs/movies/7")
        #expect(item.body.contains("Item 7") && !item.body.contains("Declared second"), "the first of equals")
        #expect(await client.get("/tabs/movies/7/cast/2").body.contains("Below an item"))
    }
}
