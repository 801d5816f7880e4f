// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

/// The installed app's details: the generated manifest, the
/// service worker's route and headers, the offline page, the page cache key and the
/// setting that turns the worker off. The worker's behaviour itself is tested in a real
/// browser (Tests/browser/test_offline.py).
@Suite("Installed app")
struct InstalledAppTests {
    private func manifest(_ response: TestResponse) throws -> [String: Any] {
        try #require(JSONSerialization.jsonObject(with: Data(response.bodyBytes)) as? [String: Any])
    }

    @Test("the manifest is generated: shortcuts for the first four tabs in the visitor's language, with their icons")
    func manifestShortcuts() async throws {
        let client = TestClient(try makeApp().responder)
        let response = await client.get("/manifest.webmanifest?lang=de")
        #expect(response.status == 200)
        #expect(response.headers["content-type"] == "application/manifest+json")
        #expect(response.headers["cache-control"] == "no-cache")
        let json = try manifest(response)
        #expect(json["lang"] as? String == "de")
        let shortcuts = try #require(json["shortcuts"] as? [[String: Any]])
        #expect(shortcuts.map { $0["url"] as? String } == ["tabs/featured", "tabs/music", "tabs/movies", "tabs/tv"])
        #expect(shortcuts[1]["name"] as? String == "Musik")
        for shortcut in shortcuts {
            let icon = try #require((shortcut["icons"] as? [[String: Any]])?.first)
            let src = try #require(icon["src"] as? String)
            #expect(src.hasPrefix("icons/") && src.contains(".svg?v="), "relative, with the content hash: \(src)")
            #expect(icon["type"] as? String == "image/svg+xml")
            await #expect(client.get("/" + src).status == 200)
        }
        // Accept-Language when no ?lang= is given; English by default.
        let japanese = try await manifest(client.get("/manifest.webmanifest", headers: [("Accept-Language", "ja")]))
        #expect((japanese["shortcuts"] as? [[String: Any]])?.first?["name"] as? String != "Featured")
        await #expect(try manifest(client.get("/manifest.webmanifest"))["lang"] as? String == "en")
        #expect(client.cookies.isEmpty, "the manifest needs no session")
    }

    @Test("the manifest has display_override, a description, and screenshots with their real sizes")
    func manifestDetails() async throws {
        let client = TestClient(
            try makeApp { $0.appDescription = "Music, films and more, in tabs." }.responder)
        let json = try await manifest(client.get("/manifest.webmanifest"))
        #expect(json["display"] as? String == "standalone")
        #expect(json["display_override"] as? [String] == ["standalone", "minimal-ui"])
        #expect(json["description"] as? String == "Music, films and more, in tabs.")
        for key in ["id", "start_url", "scope"] { #expect(json[key] as? String == "./", "\(key)") }
        #expect(json["theme_color"] as? String == "#007aff")
        let screenshots = try #require(json["screenshots"] as? [[String: Any]])
        let byFactor = Dictionary(
            uniqueKeysWithValues: screenshots.map { ($0["form_factor"] as? String ?? "", $0["sizes"] as? String) })
        #expect(byFactor == ["narrow": "1170x2532", "wide": "1440x900"])
        for screenshot in screenshots {
            let src = try #require(screenshot["src"] as? String)
            let image = await client.get("/" + src)
            #expect(image.status == 200 && image.headers["content-type"] == "image/png")
        }
        let icons = try #require(json["icons"] as? [[String: Any]])
        #expect(Set(icons.compactMap { $0["sizes"] as? String }) == ["192x192", "512x512"])
        #expect(icons.contains { $0["purpose"] as? String == "maskable" })
        // The description defaults to the app's name.
        let plain = try await manifest(TestClient(try makeApp().responder).get("/manifest.webmanifest"))
        #expect(plain["description"] as? String == plain["name"] as? String)
    }

    @Test("a changed manifest is fetched again; an unchanged one answers 304")
    func manifestRevalidation() async throws {
        let client = TestClient(try makeApp().responder)
        let first = await client.get("/manifest.webmanifest?lang=en")
        let etag = try #require(first.headers["etag"])
        await #expect(client.get("/manifest.webmanifest?lang=en", headers: [("If-None-Match", etag)]).status == 304)
        await #expect(client.get("/manifest.webmanifest?lang=de", headers: [("If-None-Match", etag)]).status == 200)
    }

    @Test("pages link the manifest in their language, and theme colours for light and dark")
    func pageHead() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured", headers: [("Accept-Language", "de")])
        #expect(page.attribute(named: "href", inTagContaining: "rel=\"manifest\"") == "/manifest.webmanifest?lang=de")
        #expect(
            page.attribute(named: "content", inTagContaining: "media=\"(prefers-color-scheme: light)\"") == "#007aff")
        #expect(
            page.attribute(named: "content", inTagContaining: "media=\"(prefers-color-scheme: dark)\"") == "#0a84ff")
        // The count badge carries its number for the app badge; text and dot badges do not.
        let counted = try page.document.select("nav.tab-bar .tab-badge[data-count]")
        #expect(counted.map { $0.attribute("data-count") } == ["3"])
    }

    @Test("the worker is served at the root of the app, revalidated every time, with its settings")
    func workerRoute() async throws {
        let client = TestClient(try makeApp().responder)
        let worker = await client.get("/sw.js")
        #expect(worker.status == 200)
        #expect(worker.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(worker.headers["cache-control"] == "no-cache")
        #expect(worker.headers["service-worker-allowed"] == "/")
        #expect(worker.body.hasPrefix("self.tabServerWorker = {\"enabled\":true,"))
        let page = await client.get("/tabs/featured")
        let css = try #require(page.attribute(named: "href", inTagContaining: "rel=\"stylesheet\""))
        #expect(worker.body.contains("\"\(css)\""), "the shell lists the stylesheet's hashed URL")
        #expect(worker.body.contains("\"offline\":\"/offline\""))
        let tag = "src=\"/js/install.js"
        #expect(page.attribute(named: "data-worker", inTagContaining: tag) == "/sw.js")
        #expect(page.attribute(named: "data-scope", inTagContaining: tag) == "/")
        #expect(
            page.attribute(named: "data-offline-notice", inTagContaining: tag) == "Offline — shown as of {time}")
        let etag = try #require(worker.headers["etag"])
        await #expect(client.get("/sw.js", headers: [("If-None-Match", etag)]).status == 304)
        #expect(client.cookies.isEmpty, "the worker needs no session")
    }

    @Test("under a base path the worker and its scope are the base path's")
    func workerUnderBasePath() async throws {
        let client = TestClient(try makeApp { $0.basePath = "/app" }.responder)
        let worker = await client.get("/app/sw.js")
        #expect(worker.status == 200)
        #expect(worker.headers["service-worker-allowed"] == "/app/")
        #expect(worker.body.contains("\"base\":\"/app\""))
        #expect(worker.body.contains("\"/app/css/app.css?v="))
        let page = await client.get("/app/tabs/featured")
        let tag = "src=\"/app/js/install.js"
        #expect(page.attribute(named: "data-worker", inTagContaining: tag) == "/app/sw.js")
        #expect(page.attribute(named: "data-scope", inTagContaining: tag) == "/app/")
        await #expect(client.get("/app/manifest.webmanifest").status == 200)
    }

    @Test("the worker's bytes change when an asset changes")
    func workerVersion() async throws {
        let folder = TestFixtures.temporaryDirectory("sw-public")
        let copy = folder + "/Public"
        try FileManager.default.copyItem(atPath: TestFixtures.repositoryRoot + "/Public", toPath: copy)
        let before = await TestClient(try makeApp { $0.publicDirectory = copy }.responder).get("/sw.js")
        let css = copy + "/css/app.css"
        let changed = try String(contentsOfFile: css, encoding: .utf8) + "\n/* changed */\n"
        try changed.write(toFile: css, atomically: true, encoding: .utf8)
        let after = await TestClient(try makeApp { $0.publicDirectory = copy }.responder).get("/sw.js")
        #expect(before.body != after.body)
        #expect(before.headers["etag"] != after.headers["etag"])
    }

    @Test("--service-worker off: pages register none, and /sw.js is a worker that removes itself")
    func workerOff() async throws {
        let client = TestClient(try makeApp { $0.serviceWorker = false }.responder)
        let page = await client.get("/tabs/featured")
        #expect(page.status == 200)
        #expect(page.attribute(named: "data-worker", inTagContaining: "src=\"/js/install.js") == nil)
        #expect(
            try page.document.first("script[src^=\"/js/install.js\"]") != nil, "the badge still shows")
        await #expect(
            client.get("/tabs/featured", headers: [("X-TabServer-Worker", "1")]).headers["x-tabserver-cache-key"] == nil
        )
        let worker = await client.get("/sw.js")
        #expect(worker.status == 200)
        #expect(worker.body.hasPrefix("self.tabServerWorker = {\"enabled\":false,"))
        for (arguments, environment) in [
            (["--service-worker", "off"], [:]), ([], ["TABSERVER_SERVICE_WORKER": "off"]),
        ] {
            let parsed = try AppConfiguration.parse(arguments: arguments, environment: environment)
            guard case .run(let configuration) = parsed else {
                Issue.record("not a configuration")
                continue
            }
            #expect(!configuration.serviceWorker)
        }
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--service-worker", "sometimes"], environment: [:])
        }
        #expect(AppConfiguration().serviceWorker)
    }

    @Test("the offline page shows the bar in the visitor's language and changes nothing")
    func offlinePage() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/offline", headers: [("Accept-Language", "de")])
        #expect(page.status == 200)
        #expect(try page.document.first("nav.tab-bar") != nil)
        #expect(page.language == "de")
        #expect(page.mainText.contains("Du bist offline"))
        #expect(client.cookies.isEmpty, "viewing it stores no session")
        // A visitor with a session keeps their selection.
        _ = await client.get("/tabs/movies")
        #expect(!client.cookies.isEmpty)
        _ = await client.get("/offline")
        await #expect(client.get("/").location == "/tabs/movies")
    }

    @Test(
        "pages the worker fetches name their visitor's cache key: per session, another for another, anonymous without")
    func cacheKey() async throws {
        let app = try makeApp()
        let worker = [("X-TabServer-Worker", "1")]
        let first = TestClient(app.responder)
        let anonymous = try await #require(
            first.get("/tabs/featured", headers: worker).headers["x-tabserver-cache-key"])
        #expect(anonymous == "anonymous")
        // The answer that sets the cookie already names the new session's key.
        let created = await first.get("/tabs/movies", headers: worker)
        let key = try #require(created.headers["x-tabserver-cache-key"])
        #expect(key != anonymous && key.count == 32)
        await #expect(first.get("/tabs/music", headers: worker).headers["x-tabserver-cache-key"] == key)
        // A navigation preload is the worker's too; a 304 carries the key as well.
        let preloaded = await first.get("/tabs/music", headers: [("Service-Worker-Navigation-Preload", "true")])
        #expect(preloaded.headers["x-tabserver-cache-key"] == key)
        if let etag = preloaded.headers["etag"] {
            let revalidated = await first.get("/tabs/music", headers: worker + [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.headers["x-tabserver-cache-key"] == key)
        }
        let cookie = try #require(first.cookies.values.first)
        #expect(!key.contains(cookie) && !cookie.contains(key), "the key is not the session id")
        let second = TestClient(app.responder)
        _ = await second.get("/tabs/movies")
        await #expect(second.get("/tabs/music", headers: worker).headers["x-tabserver-cache-key"] != key)
        // The browser's own requests, files and redirects carry none.
        await #expect(first.get("/tabs/music").headers["x-tabserver-cache-key"] == nil)
        await #expect(first.get("/css/app.css", headers: worker).headers["x-tabserver-cache-key"] == nil)
        await #expect(first.get("/", headers: worker).headers["x-tabserver-cache-key"] == nil)
    }

    @Test("a signed-in user has a key of their own: signing out changes it")
    func cacheKeyFollowsTheUser() async throws {
        let client = TestClient(try makeApp { $0.identityHeader = "X-Forwarded-User" }.responder)
        client.defaultHeaders = [("X-TabServer-Worker", "1")]
        _ = await client.get("/tabs/movies")
        let signedOut = await client.get("/tabs/music").headers["x-tabserver-cache-key"]
        let signedIn = await client.get("/tabs/music", headers: [("X-Forwarded-User", "ada")])
            .headers["x-tabserver-cache-key"]
        #expect(signedIn != nil && signedIn != signedOut)
        await #expect(client.get("/tabs/music").headers["x-tabserver-cache-key"] == signedOut)
    }
}
