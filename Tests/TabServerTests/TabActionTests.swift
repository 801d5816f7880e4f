// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServer
import TabServerCore
import TabServerHTTP
import TabServerTabBar
import TabServerTesting
import TabServerWeb
import Testing

@testable import TabServerCommand

/// An app's own pages and actions inside a tab (`TabContent`): forms with CSRF,
/// post/redirect/get with a notice, 422 with nothing stored, confirmation, visitor
/// values, bodies of other types, and pages loaded off the engine.
@Suite("Actions inside tabs")
struct TabActionTests {
    /// The movies tab as a tiny list app; the other tabs stay the demo's.
    final class Shelf: Sendable {
        let titles = Mutex<[String]>(["Alien"])
        var count: Int { titles.withLock { $0.count } }

        func content() -> TabContent {
            var content = TabContent(fallback: DemoCatalog())
            content.tab("movies") { movies in
                movies.page("") { request, context in
                    TabPage(
                        title: (context.tab?.title ?? ""),
                        context: [
                            "items": .array(self.titles.withLock { $0 }.map { .string($0) }),
                            "sort": .string(context.visitorValues["sort"] ?? "added"),
                        ])
                }
                movies.page("new") { request, context in Self.form(context.basePath, title: "", error: nil) }
                movies.page("{id}") { request, context in
                    guard let index = Int(context.parameters["id"] ?? ""), index < self.count else { return nil }
                    return TabPage(
                        title: self.titles.withLock { $0[index] }, parentLocation: "",
                        context: ["items": [.string(self.titles.withLock { $0[index] })]])
                }
                movies.page(
                    "slow",
                    { request, context in
                        try? await Task.sleep(for: .milliseconds(300))
                        return TabPage(title: "Slow", parentLocation: "", context: ["items": ["late"]])
                    })
                movies.action("new") { request, context in
                    let title = context.form.value("title")?.trimmed ?? ""
                    guard !title.isEmpty else {
                        return .invalid(Self.form(context.basePath, title: title, error: "A movie needs a title."))
                    }
                    let id = self.titles.withLock { titles in
                        titles.append(title)
                        return titles.count - 1
                    }
                    return .redirect(to: "\(id)", notice: "Added “\(title)”.")
                }
                movies.action(
                    "{id}/delete", confirm: { request, context in "Delete movie \(context.parameters["id"] ?? "")?" }
                ) { request, context in
                    guard let index = Int(context.parameters["id"] ?? ""), index < self.count else {
                        throw HTTPError.notFound()
                    }
                    _ = self.titles.withLock { $0.remove(at: index) }
                    return .redirect(to: "", notice: "Deleted.")
                }
                movies.action("sort") { request, context in
                    .redirect(to: "", notice: nil, visitorValues: ["sort": context.form.value("sort") ?? "added"])
                }
                movies.action("import") { request, context in
                    struct Import: Decodable { var titles: [String] }
                    let sent = try request.decodeJSON(Import.self)
                    self.titles.withLock { $0 += sent.titles }
                    return .redirect(to: "")
                }
                movies.action(
                    "later",
                    { request, context in
                        try? await Task.sleep(for: .milliseconds(100))
                        self.titles.withLock { $0.append("Later") }
                        return .redirect(to: "", notice: "Done later.")
                    })
            }
            return content
        }

        static func form(_ base: String, title: String, error: String?) -> TabPage {
            var form = TabForm(action: base + "/tabs/movies/new", submitLabel: "Add")
            form.add("title", label: "Title", value: title, error: error)
            return TabPage(title: "New movie", parentLocation: "", context: ["form": form.context])
        }
    }

    /// A template for the movies tab that shows items, the visitor's sort and a form.
    static let templates: String = {
        let folder = TestFixtures.temporaryDirectory("tabserver-actions")
        TestFixtures.write(
            """
            {{<layout}}{{$content}}{{#page}}<p class="sort">sort={{sort}}</p>
            <ul>{{#items}}<li class="item">{{.}}</li>{{/items}}</ul>
            {{#form}}{{> partials/form}}{{/form}}{{/page}}{{/content}}{{/layout}}
            """, to: folder + "/tabs/movies.mustache")
        return folder
    }()

    func makeShelfApp(_ shelf: Shelf = Shelf()) throws -> (Application, Shelf) {
        var configuration = TestFixtures.configuration()
        configuration.templateOverlays = [Self.templates]
        return (try buildApplication(configuration, content: shelf.content(), log: quietLog), shelf)
    }

    /// The items the movies template lists.
    static func items(_ page: TestResponse) throws -> [String] {
        try page.document.select("main ul > li.item").map(\.text)
    }

    /// The text of the page's one-shot notice, or nil when it shows none.
    static func notice(_ page: TestResponse) throws -> String? {
        try page.document.first("main .notice[role=status]")?.text
    }

    /// The line the movies template writes with the visitor's sort.
    static func sort(_ page: TestResponse) throws -> String? {
        try page.document.first("main p.sort")?.text
    }

    @Test("a valid post: 303 to the new item, remembered as the tab's place, with a one-shot notice")
    func addSucceeds() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let form = await client.get("/tabs/movies/new")
        #expect(form.status == 200)
        #expect(try form.document.first("main form.tab-form[action='/tabs/movies/new'] input[name=title]") != nil)
        let posted = await client.post("/tabs/movies/new", form: [("csrf", form.csrfToken ?? ""), ("title", "Heat")])
        #expect(posted.status == 303)
        #expect(posted.location == "/tabs/movies/1")
        #expect(shelf.count == 2)
        let shown = await client.follow(posted)
        #expect(try Self.items(shown) == ["Heat"])
        #expect(try Self.notice(shown) == "Added “Heat”.")
        let again = await client.get("/tabs/movies/1")
        #expect(try Self.items(again) == ["Heat"])
        #expect(try Self.notice(again) == nil, "the notice is shown once")
        // The tab remembers the saved item: selecting it again comes back here.
        let away = await client.post("/select", form: [("csrf", shown.csrfToken ?? ""), ("tab", "music")])
        let back = await client.post(
            "/select", form: [("csrf", client.follow(away).csrfToken ?? ""), ("tab", "movies")])
        #expect(back.location == "/tabs/movies/1")
    }

    @Test("an invalid post: 422 with the form, its message and the value sent; nothing stored, not even the visit")
    func invalidIs422() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/movies")
        let posted = await client.post("/tabs/movies/new", form: [("csrf", page.csrfToken ?? ""), ("title", "   ")])
        #expect(posted.status == 422)
        // The field is marked invalid and described by its message.
        let field = try #require(try posted.document.first("main form.tab-form input[name=title]"))
        #expect(field.attribute("aria-invalid") == "true")
        let described = try #require(field.attribute("aria-describedby"))
        #expect(try posted.document.first("#\(described)")?.text == "A movie needs a title.")
        #expect(shelf.count == 1)
        #expect(posted.headers["location"] == nil)
    }

    @Test("without the CSRF token, or from another site, nothing runs: 403")
    func csrf() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/movies")
        await #expect(client.post("/tabs/movies/new", form: [("title", "Heat")]).status == 403)
        await #expect(client.post("/tabs/movies/new", form: [("csrf", "forged"), ("title", "Heat")]).status == 403)
        let crossSite = await client.post(
            "/tabs/movies/new", form: [("csrf", page.csrfToken ?? ""), ("title", "Heat")],
            headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        #expect(shelf.count == 1)
    }

    @Test("a prefetch never runs an action")
    func prefetch() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/movies")
        let posted = await client.post(
            "/tabs/movies/new", form: [("csrf", page.csrfToken ?? ""), ("title", "Heat")],
            headers: [("Sec-Purpose", "prefetch")])
        #expect(posted.status == 403)
        #expect(shelf.count == 1)
    }

    @Test("a delete asks first: the question page posts the same form confirmed; Cancel goes back; then it runs")
    func confirmation() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/movies/0")
        let asked = await client.post("/tabs/movies/0/delete", form: [("csrf", page.csrfToken ?? ""), ("keep", "x")])
        #expect(asked.status == 200)
        let question = try #require(try asked.document.first("main .confirm-page"))
        #expect(try question.first(".confirm-question")?.text == "Delete movie 0?")
        let again = try #require(try question.first("form[method=post][action='/tabs/movies/0/delete']"))
        #expect(try again.first("input[type=hidden][name=confirmed]")?.attribute("value") == "1")
        #expect(
            try again.first("input[type=hidden][name=keep]")?.attribute("value") == "x",
            "the form's fields are posted again")
        #expect(
            try again.first("a.notice-cancel")?.attribute("href") == "/tabs/movies/0",
            "Cancel goes back to where the visitor was")
        #expect(shelf.count == 1, "nothing runs before the answer")
        let done = await client.post(
            "/tabs/movies/0/delete", form: [("csrf", asked.csrfToken ?? ""), ("keep", "x"), ("confirmed", "1")])
        #expect(done.status == 303)
        #expect(done.location == "/tabs/movies")
        #expect(shelf.count == 0)
        await #expect(try Self.notice(client.follow(done)) == "Deleted.")
    }

    @Test("unknown places: a post where only a page is is 405; nowhere 404; an unknown item the action's 404")
    func unknownPlaces() async throws {
        let (app, _) = try makeShelfApp()
        let client = TestClient(app.responder)
        let token = await client.get("/tabs/movies").csrfToken ?? ""
        let onPage = await client.post("/tabs/movies/0", form: [("csrf", token)])
        #expect(onPage.status == 405)
        #expect(onPage.headers["allow"] == "GET, HEAD")
        await #expect(client.post("/tabs/movies/nothing/here", form: [("csrf", token)]).status == 404)
        await #expect(client.post("/tabs/nosuchtab/new", form: [("csrf", token)]).status == 404)
        await #expect(client.post("/tabs/movies/9/delete", form: [("csrf", token), ("confirmed", "1")]).status == 404)
    }

    @Test("a visitor value set by an action is kept in their session and shown to their pages only")
    func visitorValues() async throws {
        let (app, _) = try makeShelfApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/movies")
        #expect(try Self.sort(page) == "sort=added")
        let sorted = await client.post("/tabs/movies/sort", form: [("csrf", page.csrfToken ?? ""), ("sort", "title")])
        #expect(sorted.status == 303)
        await #expect(try Self.sort(client.get("/tabs/movies")) == "sort=title")
        await #expect(try Self.sort(TestClient(app.responder).get("/tabs/movies")) == "sort=added", "another visitor")
        // A visitor with no stored session (the first tab's root costs none) gets one once
        // they chose something.
        let newcomer = TestClient(app.responder)
        let first = await newcomer.get("/tabs/featured")
        #expect(first.headers["set-cookie"] == nil)
        let chose = await newcomer.post("/tabs/movies/sort", form: [("csrf", first.csrfToken ?? ""), ("sort", "year")])
        #expect(chose.status == 303)
        #expect(chose.headers["set-cookie"] != nil)
        await #expect(try Self.sort(newcomer.get("/tabs/movies")) == "sort=year")
    }

    @Test("bodies: a JSON action reads its body with the token in a header; a bad one is a 422 naming the field")
    func jsonAction() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let token = await client.get("/tabs/movies").csrfToken ?? ""
        let json = [("Content-Type", "application/json"), ("X-CSRF-Token", token)]
        let posted = await client.send(
            .post, "/tabs/movies/import", body: Array(#"{"titles":["Ran","Ikiru"]}"#.utf8), headers: json)
        #expect(posted.status == 303)
        #expect(shelf.count == 3)
        let bad = await client.send(.post, "/tabs/movies/import", body: Array(#"{"names":[]}"#.utf8), headers: json)
        #expect(bad.status == 422)
        #expect(bad.headers["content-type"] == "application/problem+json")
        #expect(bad.body.contains(#""field":"titles""#))
        struct Problem: Decodable {
            struct Field: Decodable { var field: String }
            var status: Int
            var errors: [Field]
        }
        let problem = try bad.decode(Problem.self)
        #expect(problem.status == 422)
        #expect(problem.errors.map(\.field) == ["titles"])
        // The bar's own routes take forms only.
        let select = await client.send(.post, "/select", body: Array(#"{"tab":"music"}"#.utf8), headers: json)
        #expect(select.status == 415)
        // A malformed form is refused before any route runs, naming the field.
        let malformed = await client.send(
            .post, "/tabs/movies/new", body: Array("csrf=\(token)&title=%FF".utf8),
            headers: [("Content-Type", "application/x-www-form-urlencoded")])
        #expect(malformed.status == 400)
        #expect(malformed.body.contains("title"))
        #expect(shelf.count == 3)
    }

    @Test("a page loaded and an action performed off the engine answer the same as quick ones")
    func later() async throws {
        let (app, shelf) = try makeShelfApp()
        let client = TestClient(app.responder)
        let slow = await client.get("/tabs/movies/slow")
        #expect(slow.status == 200)
        #expect(try Self.items(slow) == ["late"])
        let posted = await client.post("/tabs/movies/later", form: [("csrf", slow.csrfToken ?? "")])
        #expect(posted.status == 303)
        #expect(shelf.count == 2)
        await #expect(try Self.notice(client.follow(posted)) == "Done later.")
        // The visit of the slow page was remembered like any other.
        await #expect(client.get("/").location == "/tabs/movies")
    }

    @Test("the bar's, More's and Edit's routes keep working beside the actions")
    func barUnchanged() async throws {
        let (app, _) = try makeShelfApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/movies")
        let selected = await client.post("/select", form: [("csrf", page.csrfToken ?? ""), ("tab", "music")])
        #expect(selected.status == 303)
        #expect(selected.location == "/tabs/music")
        await #expect(client.get("/more").status == 200)
        await #expect(client.get("/more/edit").status == 200)
    }
}

extension String {
    fileprivate var trimmed: String {
        var text = Substring(self)
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return String(text)
    }
}

/// The same client API over a real socket: the engine, the chain and the routes.
@Suite("Actions inside tabs, over a socket", .serialized)
struct TabActionSocketTests {
    @Test("add, 422 and confirm-then-delete through TestClient(port:), the engine between")
    func overSocket() async throws {
        let shelf = TabActionTests.Shelf()
        var configuration = TestFixtures.configuration()
        configuration.templateOverlays = [TabActionTests.templates]
        let server = try AppServer(try buildApplication(configuration, content: shelf.content(), log: quietLog))
        defer { server.shutdown() }
        let client = TestClient(port: server.port)
        let form = await client.get("/tabs/movies/new")
        #expect(form.status == 200)
        let invalid = await client.post("/tabs/movies/new", form: [("csrf", form.csrfToken ?? ""), ("title", "")])
        #expect(invalid.status == 422)
        let added = await client.post("/tabs/movies/new", form: [("csrf", form.csrfToken ?? ""), ("title", "Heat")])
        #expect(added.status == 303)
        #expect(added.location == "/tabs/movies/1")
        await #expect(try TabActionTests.notice(client.follow(added)) == "Added “Heat”.")
        let asked = await client.post("/tabs/movies/1/delete", form: [("csrf", form.csrfToken ?? "")])
        #expect(try asked.document.first("main .confirm-page .confirm-question")?.text == "Delete movie 1?")
        let deleted = await client.post(
            "/tabs/movies/1/delete", form: [("csrf", asked.csrfToken ?? ""), ("confirmed", "1")])
        #expect(deleted.status == 303)
        #expect(shelf.count == 1)
    }
}
