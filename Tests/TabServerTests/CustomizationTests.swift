// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTabBar
import TabServerTesting
import Testing

@Suite("More and customization (in-process)")
struct CustomizationTests {
    /// Opens More → Edit and returns the page.
    func openEditor(_ client: TestClient) async -> TestResponse {
        _ = await client.get("/tabs/featured")
        return await client.get("/more/edit")
    }

    @Test("More lists the tabs beyond the compact bar, each selectable")
    func morePage() async throws {
        let client = TestClient(try makeApp().responder)
        let more = await client.get("/more")
        #expect(more.status == 200)
        #expect(more.moreTabIDs == ["podcasts", "audiobooks", "purchased"])
        #expect(try more.document.first("main a[href=\"/more/edit\"]") != nil)
        #expect(more.currentTabID == nil, "on More, no tab item is the current page")
        let token = try #require(more.csrfToken)
        await #expect(
            client.post("/select", form: [("csrf", token), ("tab", "audiobooks")]).location == "/tabs/audiobooks")
    }

    @Test("move a tab into the bar, reorder, reset: each a 303, the bar follows")
    func roundTrip() async throws {
        let recorder = HookRecorder()
        let client = TestClient(try makeApp(hooks: recorder.hooks()).responder)
        var editor = await openEditor(client)
        #expect(recorder.all == ["willBeginCustomizing"])
        let token = try #require(editor.csrfToken)

        func post(_ fields: [(String, String)]) async -> TestResponse {
            let version = editor.customizeVersion!
            let response = await client.post("/more/edit", form: [("csrf", token), ("version", version)] + fields)
            editor = await client.get("/more/edit")
            return response
        }

        let toBar = await post([("action", "bar"), ("tab", "audiobooks")])
        #expect(toBar.status == 303)
        // Back to the editor, focused on the row's control that undoes the step.
        #expect(toBar.location == "/more/edit#c-more-audiobooks")
        await #expect(client.get("/more").moreTabIDs == ["tv", "podcasts", "purchased"])
        await #expect(
            client.get("/tabs/featured").barTabIDs.prefix(4) == ["featured", "music", "movies", "audiobooks"])

        await #expect(post([("action", "up"), ("tab", "audiobooks")]).status == 303)
        await #expect(
            client.get("/tabs/featured").barTabIDs.prefix(4) == ["featured", "music", "audiobooks", "movies"])

        await #expect(post([("action", "more"), ("tab", "music")]).status == 303)
        await #expect(client.get("/more").moreTabIDs.first == "music")

        await #expect(post([("action", "reset")]).status == 303)
        await #expect(
            client.get("/tabs/featured").barTabIDs == [
                "featured", "music", "movies", "tv", "podcasts", "audiobooks", "purchased",
            ])
        #expect(recorder.all == ["willBeginCustomizing"], "begin is called once per editing session")

        let done = await client.post("/more/edit", form: [("csrf", token), ("action", "done")])
        #expect(done.location == "/more")
        #expect(recorder.all.last == "didEndCustomizing changed=false")
    }

    @Test("Done reports whether the order changed")
    func doneChanged() async throws {
        let recorder = HookRecorder()
        let client = TestClient(try makeApp(hooks: recorder.hooks()).responder)
        let editor = await openEditor(client)
        let token = try #require(editor.csrfToken)
        _ = await client.post(
            "/more/edit",
            form: [("csrf", token), ("version", editor.customizeVersion!), ("action", "down"), ("tab", "music")])
        _ = await client.post("/more/edit", form: [("csrf", token), ("action", "done")])
        #expect(recorder.all.last == "didEndCustomizing changed=true")
    }

    @Test("a post from a stale page answers 409 with the current arrangement and changes nothing")
    func stale() async throws {
        let client = TestClient(try makeApp().responder)
        let first = await openEditor(client)
        let token = try #require(first.csrfToken)
        let oldVersion = try #require(first.customizeVersion)
        // Another window moves a tab.
        await #expect(
            client.post(
                "/more/edit", form: [("csrf", token), ("version", oldVersion), ("action", "down"), ("tab", "music")]
            ).status == 303)
        let arranged = await client.get("/tabs/featured").barTabIDs
        // The first window, still showing the old arrangement, posts.
        let conflict = await client.post(
            "/more/edit", form: [("csrf", token), ("version", oldVersion), ("action", "up"), ("tab", "tv")])
        #expect(conflict.status == 409)
        #expect(conflict.body.contains("changed since this page was shown"))
        #expect(conflict.customizeVersion != oldVersion, "the 409 page shows the current arrangement")
        await #expect(client.get("/tabs/featured").barTabIDs == arranged)
    }

    @Test("browsing in another window does not make the editor stale")
    func browsingIsNotAConflict() async throws {
        let client = TestClient(try makeApp().responder)
        let editor = await openEditor(client)
        _ = await client.get("/tabs/music/albums/3")
        let response = await client.post(
            "/more/edit",
            form: [
                ("csrf", editor.csrfToken!), ("version", editor.customizeVersion!), ("action", "down"),
                ("tab", "music"),
            ])
        #expect(response.status == 303)
    }

    @Test(
        "malformed customization posts are 400 pages naming the problem; nothing changes",
        arguments: [
            ([("action", "fly"), ("tab", "music")], "action"),
            ([("action", "up")], "tab"),
            ([("action", "up"), ("tab", "nope")], "tab"),
            ([("action", "up"), ("tab", "featured")], "tab"),  // fixed tab
            ([("action", "up"), ("tab", "music")], "tab"),  // already first movable
            ([("action", "order"), ("order", "featured"), ("order", "music"), ("order", "music")], "order"),
            ([("action", "order"), ("order", "music")], "order"),
            ([("action", "order")], "order"),
        ] as [([(String, String)], String)])
    func badInput(fields: [(String, String)], field: String) async throws {
        let client = TestClient(try makeApp().responder)
        let editor = await openEditor(client)
        let before = await client.get("/tabs/featured").barTabIDs
        let response = await client.post(
            "/more/edit", form: [("csrf", editor.csrfToken!), ("version", editor.customizeVersion!)] + fields)
        #expect(response.status == 400)
        #expect(try response.document.select("main code").map(\.text).contains(field))
        await #expect(client.get("/tabs/featured").barTabIDs == before)
    }

    @Test("a missing version is a 400 naming it")
    func missingVersion() async throws {
        let client = TestClient(try makeApp().responder)
        let editor = await openEditor(client)
        let response = await client.post("/more/edit", form: [("csrf", editor.csrfToken!), ("action", "reset")])
        #expect(response.status == 400)
        #expect(try response.document.select("main code").map(\.text).contains("version"))
    }
}
