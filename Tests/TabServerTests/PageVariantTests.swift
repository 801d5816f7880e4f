// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTabBar
import TabServerTestSupport
import TabServerTesting
import TabServerViews
import Testing

@testable import TabServerCommand

/// One page variant per request: its language, platform, the app's own part and the
/// model's generation key every cached page whole, and `Vary` names every field it is
/// made from.
@Suite("One page variant")
struct PageVariantTests {
    /// The demo app, with a part of its own: the `X-Theme` header.
    static func app() throws -> Application {
        let app = Application(configuration: sevenTabConfiguration(), log: quietLog)
        app.content(DemoCatalog())
        app.pageVariant(varyingOn: ["X-Theme"]) { request in request.headers["x-theme"] ?? "" }
        try app.build()
        return app
    }

    static let android = [
        (
            "User-Agent",
            "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131 Mobile Safari/537.36"
        )
    ]
    static let iPhone = [
        ("User-Agent", "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) AppleWebKit/605.1.15 Mobile/15E148")
    ]

    @Test("requests that differ in any field of the variant never share a cached page; the same variant does")
    func everyFieldKeys() async throws {
        let app = try Self.app()
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        let variations: [(String, [(String, String)])] = [
            ("base", Self.iPhone), ("language", Self.iPhone + [("Accept-Language", "de")]),
            ("platform", Self.android), ("client hint", [("Sec-CH-UA-Platform", "\"Android\"")] + Self.iPhone),
            ("app part", Self.iPhone + [("X-Theme", "dark")]),
        ]
        var etags: [String: String] = [:]
        for (name, headers) in variations {
            let first = await client.get("/tabs/music", headers: headers)
            let again = await client.get("/tabs/music", headers: headers)
            #expect(first.status == 200, "\(name)")
            let etag = try #require(first.headers["etag"], "\(name)")
            #expect(again.headers["etag"] == etag, "\(name): the same variant is the same cached page")
            etags[name] = etag
        }
        // Android's client hint and its user agent are one variant: the platform's.
        #expect(etags["client hint"] == etags["platform"])
        etags["client hint"] = nil
        #expect(Set(etags.values).count == etags.count, "\(etags)")
        // A new model generation: another page again.
        let before = try #require(etags["base"])
        try app.tabs.replaceModel(app.tabs.current.controller.model)
        let after = await client.get("/tabs/music", headers: Self.iPhone)
        #expect(after.headers["etag"] != before)
        // The variant's fields are the ones this test varies: a field added must be added here.
        let variant = PageVariant(language: 0, platform: .ios, generation: 0)
        #expect(Mirror(reflecting: variant).children.map(\.label) == ["word", "app"])
    }

    @Test("Android gets Material's bar, other platforms iOS's; a fixed platform style gives everyone one")
    func platformPerRequest() async throws {
        let app = try Self.app()
        let android = await TestClient(app.responder).get("/tabs/music", headers: Self.android)
        #expect(try android.document.first("body.platform-material") != nil)
        let iPhone = await TestClient(app.responder).get("/tabs/music", headers: Self.iPhone)
        #expect(try iPhone.document.first("body.platform-material") == nil)
        let model = app.tabs.current.controller.model
        var appearance = model.appearance
        appearance.platformStyle = .material
        try app.tabs.replaceModel(try TabBarModel(tabs: model.tabs, groups: model.groups, appearance: appearance))
        let fixed = await TestClient(app.responder).get("/tabs/music", headers: Self.iPhone)
        #expect(try fixed.document.first("body.platform-material") != nil)
        #expect(fixed.headers["vary"] == "Accept-Encoding, Accept-Language, Cookie, X-Theme", "no platform fields")
    }

    @Test("Vary names every field a page's variant is made from, the app's own among them")
    func varyNamesEveryField() async throws {
        let app = try Self.app()
        let page = await TestClient(app.responder).get("/tabs/music")
        #expect(
            page.headers["vary"] == "Accept-Encoding, Accept-Language, Cookie, Sec-CH-UA-Platform, User-Agent, X-Theme")
        let gzip = await TestClient(app.responder).get("/tabs/music", headers: [("Accept-Encoding", "gzip")])
        #expect(gzip.headers["vary"] == page.headers["vary"], "the gzip'd copy names the same")
    }

    @Test("a handler reads the app's part as context.pageVariant")
    func handlerReadsIt() async throws {
        let app = Application(configuration: sevenTabConfiguration(), log: quietLog)
        app.content(DemoCatalog())
        app.pageVariant(varyingOn: ["X-Theme"]) { request in request.headers["x-theme"] ?? "light" }
        app.router.get("/api/theme") { _, context in ["theme": context.pageVariant] }
        try app.build()
        let answer = await TestClient(app.responder).get("/api/theme", headers: [("X-Theme", "dark")])
        #expect(answer.body == #"{"theme":"dark"}"#)
    }
}
