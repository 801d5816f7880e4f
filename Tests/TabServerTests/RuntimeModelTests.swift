// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTabBar
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("Runtime changes of the shared model")
struct RuntimeModelTests {
    static let baseTabs = """
        {"tabs": [
          {"id": "featured", "title": "Featured", "icon": "featured.svg", "isCustomizable": false},
          {"id": "music", "title": "Music", "icon": "music.svg"},
          {"id": "movies", "title": "Movies", "icon": "movies.svg"},
          {"id": "tv", "title": "TV Shows", "icon": "tv.svg"}
        ]}
        """

    func app(tabs: String) throws -> (Application, String) {
        let folder = TestFixtures.temporaryDirectory("tabs")
        let path = folder + "/tabs.json"
        TestFixtures.write(tabs, to: path)
        let app = try makeApp { $0.tabsFile = path }
        return (app, path)
    }

    @Test("live visitors reconcile after a reload: new tabs appear, removed ones vanish, selection falls back")
    func reload() async throws {
        let (app, path) = try app(tabs: Self.baseTabs)
        let alice = TestClient(app.responder)
        let bob = TestClient(app.responder)
        await #expect(alice.get("/tabs/movies/films/2").status == 200)
        await #expect(bob.get("/tabs/music/albums/1").status == 200)
        await #expect(alice.get("/tabs/featured").barTabIDs == ["featured", "music", "movies", "tv"])

        TestFixtures.write(
            """
            {"tabs": [
              {"id": "featured", "title": "Featured", "icon": "featured.svg", "isCustomizable": false},
              {"id": "podcasts", "title": "Podcasts", "icon": "podcasts.svg"},
              {"id": "music", "title": "Music", "icon": "music.svg"},
              {"id": "tv", "title": "TV Shows", "icon": "tv.svg"}
            ]}
            """, to: path)
        #expect(app.reloadTabs() == nil)

        // Alice had Movies selected: it is gone, so she lands on the first enabled tab.
        await #expect(alice.get("/").location == "/tabs/featured")
        await #expect(alice.get("/tabs/featured").barTabIDs == ["featured", "podcasts", "music", "tv"])
        await #expect(alice.get("/tabs/movies").status == 404)
        // Bob's selection and stack survive.
        await #expect(bob.get("/").location == "/tabs/music/albums/1")
    }

    @Test("an invalid file is refused and the current model kept")
    func invalidReload() async throws {
        let (app, path) = try app(tabs: Self.baseTabs)
        let client = TestClient(app.responder)
        for broken in [
            "{ not json",
            #"{"tabs": [{"id": "a", "title": "A", "icon": "music.svg"}, {"id": "a", "title": "B", "icon": "tv.svg"}]}"#,
            #"{"tabs": [{"id": "a", "title": "A", "icon": "missing.svg"}]}"#,
            #"{"tabs": [{"id": "a", "title": "A", "icon": "music.svg", "template": "nothing"}]}"#,
        ] {
            TestFixtures.write(broken, to: path)
            #expect(app.reloadTabs() != nil, "\(broken)")
            await #expect(client.get("/tabs/featured").barTabIDs == ["featured", "music", "movies", "tv"])
        }
    }

    @Test("replaceModel refuses a tab without a template or icon, with a typed error, and keeps serving")
    func replaceModelValidates() async throws {
        let (app, _) = try app(tabs: Self.baseTabs)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/tv")
        // The old README example: "home" has no Templates/tabs/home.mustache.
        let noTemplate = try TabBarModel(tabs: [
            Tab(id: "home", title: "Home", icon: "featured.svg", isCustomizable: false),
            Tab(id: "music", title: "Music", icon: "music.svg", badge: .count(3)),
        ])
        #expect(throws: TabModelError.self) { try app.tabs.replaceModel(noTemplate) }
        do {
            try app.tabs.replaceModel(noTemplate)
        } catch {
            #expect(error.tabID == "home")
            #expect(error.reason.contains("missing template 'home'"))
        }
        let noIcon = try TabBarModel(tabs: [Tab(id: "music", title: "Music", icon: "nope.svg")])
        #expect(throws: TabModelError(tabID: "music", reason: "unknown icon 'nope.svg' (no Public/icons/nope.svg)")) {
            try app.tabs.replaceModel(noIcon)
        }
        let page = await client.get("/tabs/tv")
        #expect(page.status == 200)
        #expect(page.barTabIDs == ["featured", "music", "movies", "tv"], "the refused models changed nothing")
    }

    @Test("the Swift API can replace the model while sessions exist")
    func swiftAPI() async throws {
        let (app, _) = try app(tabs: Self.baseTabs)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/tv")
        let model = try TabBarModel(tabs: [
            Tab(id: "featured", title: "Featured", icon: "featured.svg", isCustomizable: false),
            Tab(id: "tv", title: "TV", icon: "tv.svg", isEnabled: false),
            Tab(id: "music", title: "Music", icon: "music.svg"),
        ])
        try app.tabs.replaceModel(model)
        await #expect(client.get("/").location == "/tabs/featured", "a disabled selection falls back")
        let page = await client.get("/tabs/featured")
        #expect(page.barTabIDs == ["featured", "tv", "music"])
        #expect(try page.document.first("nav.tab-bar button[name=tab][value=tv]")?.hasAttribute("disabled") == true)
        await #expect(client.get("/tabs/tv").status == 403)
        let refused = await client.post("/select", form: [("csrf", page.csrfToken!), ("tab", "tv")])
        #expect(refused.status == 303)
        await #expect(client.follow(refused).body.contains("not available"))
    }
}

@Suite("Start-up refuses a broken setup with a precise message")
struct StartupTests {
    func startupError(_ configure: (inout AppConfiguration) -> Void) -> String? {
        startupRefusal(configure)?.description
    }

    func tabsFile(_ text: String) -> String {
        let path = TestFixtures.temporaryDirectory("tabs") + "/tabs.json"
        TestFixtures.write(text, to: path)
        return path
    }

    @Test("duplicate ids, unknown icons, missing templates and bad JSON name the problem")
    func invalidTabs() {
        let duplicate = startupError {
            $0.tabsFile = tabsFile(
                #"{"tabs": [{"id": "music", "title": "A", "icon": "music.svg"}, {"id": "music", "title": "B", "icon": "tv.svg"}]}"#
            )
        }
        #expect(duplicate?.contains("duplicate") == true)
        #expect(duplicate?.contains("music") == true)
        let icon = startupError {
            $0.tabsFile = tabsFile(#"{"tabs": [{"id": "a", "title": "A", "icon": "nope.svg"}]}"#)
        }
        #expect(icon?.contains("unknown icon 'nope.svg'") == true)
        let template = startupError {
            $0.tabsFile = tabsFile(#"{"tabs": [{"id": "a", "title": "A", "icon": "tv.svg", "template": "ghost"}]}"#)
        }
        #expect(template?.contains("missing template 'ghost'") == true)
        let empty = startupError { $0.tabsFile = tabsFile(#"{"tabs": []}"#) }
        #expect(empty != nil)
        let missing = startupError { $0.tabsFile = "/nonexistent/tabs.json" }
        #expect(missing?.contains("/nonexistent/tabs.json") == true)
    }

    @Test("a template syntax error stops start-up with file, line and reason")
    func badTemplate() {
        let folder = TestFixtures.copyOfTemplates()
        TestFixtures.write(
            "{{<layout}}\n{{$content}}\n{{#page}}\n<p>x</p>\n{{/content}}\n{{/layout}}\n",
            to: folder + "/tabs/music.mustache")
        let message = startupError { $0.templatesDirectory = folder }
        #expect(message?.contains("music.mustache") == true)
        #expect(
            message?.hasSuffix("/tabs/music.mustache:5:1: mismatched closing tag 'content', expected 'page'") == true)
    }

    @Test("a template naming a missing partial stops start-up")
    func missingPartial() {
        let folder = TestFixtures.copyOfTemplates()
        TestFixtures.write(
            "{{<layout}}{{$content}}{{> partials/ghost}}{{/content}}{{/layout}}\n", to: folder + "/tabs/tv.mustache")
        let message = startupError { $0.templatesDirectory = folder }
        #expect(message?.contains("partials/ghost") == true)
    }
}

@Suite("Configuration from flags and environment")
struct ConfigurationTests {
    func parse(_ arguments: [String], _ environment: [String: String] = [:]) throws -> AppConfiguration {
        guard case .run(let configuration) = try AppConfiguration.parse(arguments: arguments, environment: environment)
        else { throw ConfigurationError("help") }
        return configuration
    }

    @Test("defaults, environment and flags, flags winning")
    func precedence() throws {
        let defaults = try parse([])
        #expect(defaults.http.host == "127.0.0.1")
        #expect(defaults.http.port == 8080)
        #expect(defaults.http.maxBodySize == 65536)
        #expect(defaults.http.perAddressConnectionLimit == 0)
        #expect(defaults.sessions == .sqlite(path: "data/sessions.sqlite"))
        let configured = try parse(
            ["--port", "9001", "--threads=3", "--base-path", "/app/"],
            ["TABSERVER_PORT": "7000", "TABSERVER_MAX_BODY": "1024", "TABSERVER_HOST": "0.0.0.0"])
        #expect(configured.http.port == 9001)
        #expect(configured.http.threads == 3)
        #expect(configured.http.maxBodySize == 1024)
        #expect(configured.basePath == "/app")
        #expect(configured.http.perAddressConnectionLimit == 64, "exposed directly: a per-address limit")
        #expect(try parse([], ["PORT": "5000"]).http.port == 5000)
    }

    @Test(
        "bad values and unknown flags are errors naming the flag",
        arguments: [
            (["--port", "99999"], "--port"), (["--threads", "x"], "--threads"), (["--bogus", "1"], "--bogus"),
            (["--port"], "--port"), (["--base-path", "app"], "--base-path"),
            (["--base-path", "/a/../b"], "--base-path"),
            (["--cookie-name", "a;b"], "--cookie-name"), (["--access-log", "maybe"], "--access-log"),
            (["stray"], "stray"),
        ])
    func errors(arguments: [String], flag: String) {
        #expect {
            _ = try parse(arguments)
        } throws: { error in
            (error as? ConfigurationError)?.message.contains(flag) == true
        }
    }

    @Test("--help lists every setting with its variable")
    func help() throws {
        guard case .help(let text) = try AppConfiguration.parse(arguments: ["--help"], environment: [:]) else {
            Issue.record("no help")
            return
        }
        for setting in AppConfiguration.settings {
            #expect(text.contains("--\(setting.flag)"))
            #expect(text.contains(setting.environment))
        }
    }
}
