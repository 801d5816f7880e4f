// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

/// Development mode: the files are watched (inotify), a save builds the app again for the
/// next request and tells open pages how to follow, and a file that does not load shows in
/// the browser while the server keeps serving.
@Suite("Development mode")
struct DevelopmentModeTests {
    /// A copy of the shipped files (templates, static files, locales, the tests' tab file)
    /// in a folder of its own, which a test may change.
    struct Copy {
        let root: String
        var templates: String { root + "/Templates" }
        var publicFiles: String { root + "/Public" }
        var locales: String { root + "/Locales" }
        var tabs: String { root + "/tabs.json" }

        init() throws {
            root = TestFixtures.temporaryDirectory("development")
            let manager = FileManager.default
            for folder in ["Templates", "Public", "Locales"] {
                try manager.copyItem(atPath: TestFixtures.repositoryRoot + "/" + folder, toPath: root + "/" + folder)
            }
            try manager.copyItem(atPath: sevenTabsFile, toPath: tabs)
        }

        func configuration(development: Bool = true) -> AppConfiguration {
            var configuration = sevenTabConfiguration()
            configuration.templatesDirectory = templates
            configuration.publicDirectory = publicFiles
            configuration.localesDirectory = locales
            configuration.tabsFile = tabs
            configuration.developmentMode = development
            return configuration
        }

        /// Replaces `path`'s text as editors do: a new file renamed over the old one.
        func save(_ path: String, _ text: String) throws {
            let temporary = path + ".tmp"
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            guard rename(temporary, path) == 0 else { throw TestSupportError("rename failed") }
        }

        func text(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }
    }

    /// Paths the watcher handed over, in order.
    final class Seen: Sendable {
        let paths = Mutex<[[String]]>([])
        var all: [String] { paths.withLock { $0.flatMap { $0 } } }
    }

    @Test(
        "the watcher hears a file saved in place, one renamed into place, and one in a new folder; editors' own files not"
    )
    func watcher() throws {
        let copy = try Copy()
        let seen = Seen()
        let watcher = try FileWatcher(paths: [copy.templates, copy.tabs]) { changed in
            seen.paths.withLock { $0.append(changed) }
        }
        defer { watcher.stop() }
        let page = copy.templates + "/pages/more.mustache"
        try (copy.text(page) + "\n").write(toFile: page, atomically: false, encoding: .utf8)
        #expect(waitUntil(.seconds(10)) { seen.all.contains(page) }, "\(seen.all)")
        try copy.save(copy.tabs, copy.text(copy.tabs))
        #expect(waitUntil(.seconds(10)) { seen.all.contains(copy.tabs) }, "\(seen.all)")
        try FileManager.default.createDirectory(atPath: copy.templates + "/extra", withIntermediateDirectories: false)
        // The new folder is watched once it is seen: a file saved in it a moment later counts.
        let nested = copy.templates + "/extra/note.mustache"
        #expect(
            waitUntil(.seconds(10)) {
                try? "x".write(toFile: nested, atomically: false, encoding: .utf8)
                return seen.all.contains(nested)
            }, "\(seen.all)")
        try "swap".write(toFile: copy.templates + "/.more.mustache.swp", atomically: false, encoding: .utf8)
        try "x".write(toFile: copy.root + "/unwatched.txt", atomically: false, encoding: .utf8)
        try copy.save(page, copy.text(page))
        #expect(waitUntil(.seconds(10)) { seen.all.filter { $0 == page }.count >= 2 })
        #expect(!seen.all.contains { $0.hasSuffix(".swp") || $0.hasSuffix(".tmp") || $0.hasSuffix("unwatched.txt") })
    }

    @Test("a saved template is used by the next request: a new page, a new ETag, and open pages told to reload")
    func templateReload() async throws {
        let copy = try Copy()
        let app = try buildApplication(copy.configuration(), content: DemoCatalog(), log: quietLog)
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/music")
        let before = await client.get("/tabs/music")
        #expect(!before.body.contains("development-marker"))
        let etag = try #require(before.headers["etag"])
        let layout = copy.templates + "/layout.mustache"
        try copy.save(
            layout, copy.text(layout).replacingOccurrences(of: "<body ", with: "<body data-development-marker "))
        app.developmentReload(changed: [layout])
        let rebuilt = TestClient(app.responder)
        rebuilt.cookies = client.cookies
        let after = await rebuilt.get("/tabs/music", headers: [("If-None-Match", etag)])
        #expect(after.status == 200, "the browser's copy is from before the change")
        #expect(after.body.contains("data-development-marker"))
        #expect(after.headers["etag"] != etag)
        #expect(after.body.contains(" data-dev"), "pages load the development script")
        #expect(app.developmentProblem == nil)
    }

    @Test(
        "a broken template: pages show its file, line, column, reason and lines; static files still load; fixed, pages are back"
    )
    func brokenTemplate() async throws {
        let copy = try Copy()
        let app = try buildApplication(copy.configuration(), content: DemoCatalog(), log: quietLog)
        let server = try app.start()
        defer { server.shutdown() }
        let client = TestClient(port: server.port)
        #expect(await client.get("/tabs/music").status == 200)
        let template = copy.templates + "/pages/more.mustache"
        let good = try copy.text(template)
        try copy.save(template, "<p>line one</p>\n<p>{{#items}} never closed</p>\n")
        app.developmentReload(changed: [template])
        let problem = try #require(app.developmentProblem)
        #expect(problem.file.hasSuffix("pages/more.mustache"))
        #expect(problem.line != nil)
        #expect(problem.excerpt.contains { $0.isError })
        let page = await client.get("/tabs/music")
        #expect(page.status == 500)
        #expect(page.body.contains("pages/more.mustache:"))
        #expect(page.body.contains("never closed"), "the lines around it")
        #expect(try page.document.first(".dev-error-reason") != nil)
        #expect(await client.get("/css/app.css").status == 200, "static files still load")
        #expect(await client.get("/healthz").status == 200, "the server keeps serving")
        try copy.save(template, good)
        app.developmentReload(changed: [template])
        #expect(app.developmentProblem == nil)
        #expect(await client.get("/tabs/music").status == 200)
    }

    @Test("a tab file that is not JSON names its line and column; a locale file too")
    func brokenDataFiles() throws {
        let copy = try Copy()
        let app = try buildApplication(copy.configuration(), content: DemoCatalog(), log: quietLog)
        let tabs = try copy.text(copy.tabs)
        try copy.save(copy.tabs, "{\n  \"tabs\": [\n    {\"id\": \"a\",, }\n  ]\n}\n")
        app.developmentReload(changed: [copy.tabs])
        var problem = try #require(app.developmentProblem)
        #expect(problem.file == copy.tabs)
        #expect(problem.line == 3, "\(problem)")
        #expect(problem.column != nil)
        try copy.save(copy.tabs, tabs)
        let locale = copy.locales + "/de.json"
        try copy.save(locale, "{\n  \"name\": \"Deutsch\"\n  \"direction\": \"ltr\"\n}\n")
        app.developmentReload(changed: [locale])
        problem = try #require(app.developmentProblem)
        #expect(problem.file.hasSuffix("de.json"))
        #expect(problem.line == 3, "\(problem)")
    }

    @Test("a stylesheet or an icon saved is swapped in place: the event names its path and new URL; a script reloads")
    func swaps() async throws {
        let copy = try Copy()
        let app = try buildApplication(copy.configuration(), content: DemoCatalog(), log: quietLog)
        let server = try app.start()
        defer { server.shutdown() }
        // A page's live channel, read as the browser does, by a visitor without a session.
        let live = LiveEventsTests()
        let stream = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 3))
        #expect(stream.send("GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n"))
        #expect(live.read(stream, until: "retry:").contains("200"), "a visitor without a session follows too")
        let css = copy.publicFiles + "/css/app.css"
        try copy.save(css, copy.text(css) + "\n.development-check { color: red; }\n")
        app.developmentReload(changed: [css])
        // Other events may come first (the watcher sees the save too, and a rebuilt model
        // redraws the bar): read up to the stylesheet's, and to its end.
        let marker = #""kind":"stylesheet""#
        var event = live.read(stream, until: marker, seconds: 10)
        if let found = event.range(of: marker), !event[found.upperBound...].contains("\n\n") {
            event += live.read(stream, until: "\n\n", seconds: 10)
        }
        let page = await TestClient(port: server.port).get("/tabs/music")
        let url = try #require(
            try page.document.first("link[rel=stylesheet][href^=\"/css/app.css\"]")?.attribute("href"))
        #expect(event.contains(#""kind":"stylesheet""#), "\(event)")
        #expect(event.contains(#""path":"/css/app.css""#))
        #expect(event.contains(url), "\(event)")
        let script = copy.publicFiles + "/js/app.js"
        try copy.save(script, copy.text(script) + "\n")
        app.developmentReload(changed: [script])
        #expect(live.read(stream, until: #"{"kind":"reload"}"#, seconds: 10).contains(#"{"kind":"reload"}"#))
    }

    @Test("outside development mode: no watcher, no development script, and sessionless visitors get no stream")
    func productionUnchanged() async throws {
        let copy = try Copy()
        let app = try buildApplication(copy.configuration(development: false), content: DemoCatalog(), log: quietLog)
        let page = await TestClient(app.responder).get("/tabs/music")
        #expect(!page.body.contains("js/dev."))
        #expect(!page.body.contains(" data-dev"))
        #expect(await TestClient(app.responder).get("/events").status == 204)
    }

    @Test("--dev alone turns development mode on; --dev off and TABSERVER_DEV=on say which")
    func flag() throws {
        func parsed(_ arguments: [String], _ environment: [String: String] = [:]) throws -> AppConfiguration? {
            guard
                case .run(let configuration) = try AppConfiguration.parse(
                    arguments: arguments, environment: environment)
            else { return nil }
            return configuration
        }
        #expect(try parsed(["--dev"])?.developmentMode == true)
        #expect(try parsed(["--dev", "--port", "9000"])?.developmentMode == true)
        #expect(try parsed(["--dev", "off"])?.developmentMode == false)
        #expect(try parsed([], ["TABSERVER_DEV": "on"])?.developmentMode == true)
        #expect(try parsed([])?.developmentMode == false)
    }
}
