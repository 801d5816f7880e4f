// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

/// What an Android phone is sent: Material 3's styles instead of iOS's floating bar and
/// its gesture, Material's badge cap, and the Material classes whatever the visitor's
/// choice of sidebar.
@Suite("The Material platform's page")
struct MaterialPageTests {
    static let tabs = """
        {"appearance": {"barStyle": "floating", "minimizeBehavior": "onScrollDown", "regularLayout": "sidebar"},
         "tabs": [
          {"id": "featured", "title": "Featured", "icon": "featured.svg", "badge": {"count": 1500}},
          {"id": "music", "title": "Music", "icon": "music.svg"},
          {"id": "movies", "title": "Movies", "icon": "movies.svg"}
        ]}
        """

    func client() throws -> TestClient {
        let path = TestFixtures.temporaryDirectory("material") + "/tabs.json"
        TestFixtures.write(Self.tabs, to: path)
        return TestClient(try makeApp { $0.tabsFile = path }.responder)
    }

    @Test("Android gets material.css and Material's classes, no floating bar or scrub; the iPhone its own")
    func styles() async throws {
        let client = try client()
        let android = await client.get("/tabs/music", headers: PageVariantTests.android)
        let body = try #require(try android.document.first("body"))
        #expect(body.classes.contains("platform-material") && body.classes.contains("regular-sidebar"))
        #expect(!body.classes.contains("bar-floating") && !body.classes.contains("minimizes-bar"), "\(body.classes)")
        let sheets = try android.document.select("link[rel=stylesheet]").compactMap { $0.attribute("href") }
        #expect(sheets.contains { $0.contains("/css/material") } && !sheets.contains { $0.contains("floating-bar") })
        #expect(try android.document.select("script[src*=tab-scrub]").isEmpty)
        let iPhone = await client.get("/tabs/music", headers: PageVariantTests.iPhone)
        let iPhoneBody = try #require(try iPhone.document.first("body"))
        #expect(iPhoneBody.classes.contains("bar-floating") && !iPhoneBody.classes.contains("platform-material"))
        #expect(try iPhone.document.first("link[href*=floating-bar]") != nil)
        #expect(try iPhone.document.first("link[href*=material]") == nil)
        #expect(try iPhone.document.first("script[src*=tab-scrub]") != nil)
    }

    @Test("a count over 999 is 999+ on Material's bar, 99+ on iOS's; the exact number is read out on both")
    func badgeCap() async throws {
        let client = try client()
        let android = await client.get("/tabs/music", headers: PageVariantTests.android)
        #expect(try android.document.first("button[value=featured] .tab-badge")?.text == "999+")
        #expect(
            try android.document.first("button[value=featured] .tab-position-compact")?.text.contains("1500") == true)
        let iPhone = await client.get("/tabs/music", headers: PageVariantTests.iPhone)
        #expect(try iPhone.document.first("button[value=featured] .tab-badge")?.text == "99+")
    }

    @Test("a visitor who hid the sidebar keeps Material's page (its classes without the drawer)")
    func sidebarChoice() async throws {
        let client = try client()
        let page = await client.get("/tabs/music", headers: PageVariantTests.android)
        let token = try #require(page.csrfToken)
        let hidden = await client.post(
            "/sidebar", form: [("csrf", token), ("sidebar", "hide"), ("return", "/tabs/music")],
            headers: PageVariantTests.android)
        #expect(hidden.status == 303)
        let after = await client.get("/tabs/music", headers: PageVariantTests.android)
        let classes = try #require(try after.document.first("body")).classes
        #expect(classes.contains("platform-material") && !classes.contains("regular-sidebar"), "\(classes)")
        #expect(!classes.contains("bar-floating"))
    }
}
