// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerTabBar
import TabServerTesting
import Testing

@Suite("POST /sidebar: the visitor's choice of sidebar or bar at 1024 px and wider")
struct SidebarToggleRouteTests {
    static func sidebarApp() throws -> Application { try makeApp(appearance: ["regularLayout": "sidebar"]) }

    /// The value of the toggle's button (`hide` or `show`), nil when there is none.
    static func toggleValue(_ page: TestResponse) -> String? {
        (try? page.document.first("form.sidebar-toggle button[name=sidebar]"))??.attribute("value")
    }

    /// The layout the page's body asks for at 1024 px and wider: `regular-sidebar` or
    /// `regular-top-bar`, nil when it names neither.
    static func regularLayout(_ page: TestResponse) -> String? {
        page.bodyClasses.first { $0 == "regular-sidebar" || $0 == "regular-top-bar" }
    }

    @Test("a sidebar model offers the toggle; hiding it is a 303 back, kept in the session, and shows the top bar")
    func hideAndShow() async throws {
        let client = TestClient(try Self.sidebarApp().responder)
        let page = await client.get("/tabs/movies")
        #expect(Self.regularLayout(page) == "regular-sidebar")
        #expect(Self.toggleValue(page) == "hide")
        #expect(try page.document.first("form.sidebar-toggle")?.attribute("action") == "/sidebar")
        let token = try #require(page.csrfToken)
        let hidden = await client.post(
            "/sidebar", form: [("csrf", token), ("sidebar", "hide"), ("return", "/tabs/movies")])
        #expect(hidden.status == 303)
        #expect(hidden.location == "/tabs/movies")
        let after = await client.get("/tabs/music")
        #expect(Self.regularLayout(after) == "regular-top-bar")
        #expect(Self.toggleValue(after) == "show")
        #expect(try after.document.first("#sidebar-toggle")?.attribute("aria-label") == "Show sidebar")
        // More and Edit follow the choice too.
        await #expect(Self.regularLayout(client.get("/more")) == "regular-top-bar")
        let shown = await client.post("/sidebar", form: [("csrf", token), ("sidebar", "show"), ("return", "/more")])
        #expect(shown.location == "/more")
        await #expect(Self.regularLayout(client.get("/tabs/music")) == "regular-sidebar")
    }

    @Test("the script's post gets the page itself in one round trip")
    func oneRoundTrip() async throws {
        let client = TestClient(try Self.sidebarApp().responder)
        let token = try await #require(client.get("/tabs/tv").csrfToken)
        let answer = await client.post(
            "/sidebar", form: [("csrf", token), ("sidebar", "hide"), ("return", "/tabs/tv")],
            headers: [("TabServer-Answer", "page")])
        #expect(answer.status == 200)
        #expect(answer.headers["tabserver-location"] == "/tabs/tv")
        #expect(Self.regularLayout(answer) == "regular-top-bar")
    }

    @Test("bad input changes nothing: an unknown value is a 400 naming the field, no CSRF a 403, a stale post a 409")
    func badInput() async throws {
        let client = TestClient(try Self.sidebarApp().responder)
        let token = try await #require(client.get("/tabs/music").csrfToken)
        let unknown = await client.post("/sidebar", form: [("csrf", token), ("sidebar", "sideways")])
        #expect(unknown.status == 400)
        let message = unknown.mainText
        #expect(message.contains("sideways") && message.contains("sidebar"))
        await #expect(client.post("/sidebar", form: [("csrf", token)]).status == 400)
        let forged = await client.post("/sidebar", form: [("csrf", "nope"), ("sidebar", "hide")])
        #expect(forged.status == 403)
        await #expect(client.post("/sidebar", form: [("sidebar", "hide")]).status == 403)
        await #expect(Self.regularLayout(client.get("/tabs/music")) == "regular-sidebar", "still the sidebar")
        // Two windows: one hides the sidebar, the other (still showing it) asks the same.
        await #expect(client.post("/sidebar", form: [("csrf", token), ("sidebar", "hide")]).status == 303)
        let stale = await client.post(
            "/sidebar", form: [("csrf", token), ("sidebar", "hide"), ("return", "/tabs/music")])
        #expect(stale.status == 409)
        #expect(stale.mainText.contains("already hidden"))
        #expect(Self.toggleValue(stale) == "show", "the answer's bar shows the state as it is")
        await #expect(Self.regularLayout(client.get("/tabs/music")) == "regular-top-bar")
    }

    @Test("a model without the toggle shows none and refuses the post; sidebarToggle offers it with any layout")
    func offered() async throws {
        let plain = TestClient(try makeApp().responder)
        let page = await plain.get("/tabs/music")
        #expect(Self.toggleValue(page) == nil)
        let token = try #require(page.csrfToken)
        await #expect(plain.post("/sidebar", form: [("csrf", token), ("sidebar", "show")]).status == 409)
        let bottom = TestClient(try makeApp(appearance: ["sidebarToggle": true]).responder)
        let bar = await bottom.get("/tabs/music")
        #expect(Self.toggleValue(bar) == "show")
        let bottomToken = try #require(bar.csrfToken)
        await #expect(bottom.post("/sidebar", form: [("csrf", bottomToken), ("sidebar", "show")]).status == 303)
        await #expect(Self.regularLayout(bottom.get("/tabs/music")) == "regular-sidebar")
    }

    @Test("Edit's reset restores the tab arrangement, not the layout choice; a first-time visitor's choice is kept")
    func resetAndCookieless() async throws {
        let client = TestClient(try Self.sidebarApp().responder)
        let token = try await #require(client.get("/more/edit").csrfToken)
        await #expect(client.post("/sidebar", form: [("csrf", token), ("sidebar", "hide")]).status == 303)
        #expect(!client.cookies.isEmpty, "the choice needs a session of its own")
        let edit = await client.get("/more/edit")
        let version = try #require(edit.attribute(named: "value", inTagContaining: "name=\"version\""))
        let reset = await client.post("/more/edit", form: [("csrf", token), ("action", "reset"), ("version", version)])
        #expect(reset.status == 303)
        await #expect(Self.regularLayout(client.get("/tabs/music")) == "regular-top-bar")
    }
}
