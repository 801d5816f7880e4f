// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import TabServerWeb
import Testing

@testable import TabServerCommand

/// Requests other sites' pages make: the shared form token is a new visitor's only, an
/// `Origin` of another host is refused where `Sec-Fetch-Site` is absent, and an app's own
/// routes that change something refuse other origins and need the token for form bodies.
@Suite("Cross-site requests and the form token")
struct CrossSiteTests {
    /// The demo app with a proxy that names the user in `X-Forwarded-User`.
    static func identityApp() throws -> Application {
        try makeApp { $0.identityHeader = "X-Forwarded-User" }
    }

    @Test("the hourly shared token, fetched by anyone, never changes a signed-in user's record")
    func sharedTokenIsNotAUsers() async throws {
        let app = try Self.identityApp()
        let shared = try #require(await TestClient(app.responder).get("/more").csrfToken)
        let attacker = TestClient(app.responder)
        let post = await attacker.post(
            "/language", form: [("csrf", shared), ("lang", "de")], headers: [("X-Forwarded-User", "alice")])
        #expect(post.status == 403)
        #expect(attacker.cookies.isEmpty, "nothing stored")
        let alice = TestClient(app.responder)
        let page = await alice.get("/more", headers: [("X-Forwarded-User", "alice")])
        #expect(page.body.contains("lang=\"en\""), "alice's record is unchanged")
        // Bob's own token is bob's: it does not sign alice's posts either.
        let bobs = try #require(
            await TestClient(app.responder).get("/more", headers: [("X-Forwarded-User", "bob")]).csrfToken)
        #expect(bobs != shared)
        let asAlice = await TestClient(app.responder).post(
            "/language", form: [("csrf", bobs), ("lang", "de")], headers: [("X-Forwarded-User", "alice")])
        #expect(asAlice.status == 403)
    }

    @Test("a signed-in user's first post from a page without a cookie carries their own token and is taken")
    func usersOwnToken() async throws {
        let app = try Self.identityApp()
        let alice = TestClient(app.responder)
        let headers = [("X-Forwarded-User", "alice")]
        let token = try #require(await alice.get("/more", headers: headers).csrfToken)
        let post = await alice.post("/language", form: [("csrf", token), ("lang", "de")], headers: headers)
        #expect(post.status == 303)
        let other = TestClient(app.responder)
        #expect(await other.get("/more", headers: headers).body.contains("lang=\"de\""), "the record changed")
    }

    @Test(
        "a library form whose Origin is another host's is refused when Sec-Fetch-Site is absent",
        arguments: [
            ("https://evil.example", 403), ("null", 403), ("https://shop.example.evil.example", 403),
            ("http://shop.example", 303), ("https://SHOP.example:8443", 303),
        ])
    func originChecked(origin: String, status: Int) async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        client.defaultHeaders = [("Host", "shop.example")]
        let token = try #require(await client.get("/tabs/music").csrfToken)
        let post = await client.post(
            "/select", form: [("csrf", token), ("tab", "movies")], headers: [("Origin", origin)])
        #expect(post.status == status, "\(origin)")
        let current = await client.get("/").location
        #expect(current == (status == 303 ? "/tabs/movies" : "/tabs/music"), "\(origin)")
    }

    @Test(
        "Sec-Fetch-Site decides when a browser sends it: same-origin is taken whatever Origin says; same-site needs the app's Origin",
        arguments: [
            ("same-origin", "null", 303), ("same-origin", "https://proxy.internal", 303), ("none", "null", 303),
            ("same-site", "https://sub.shop.example", 403), ("same-site", "https://shop.example", 303),
            ("cross-site", "https://shop.example", 403),
        ])
    func fetchSiteDecides(fetchSite: String, origin: String, status: Int) async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        client.defaultHeaders = [("Host", "shop.example")]
        let token = try #require(await client.get("/tabs/music").csrfToken)
        let post = await client.post(
            "/select", form: [("csrf", token), ("tab", "movies")],
            headers: [("Sec-Fetch-Site", fetchSite), ("Origin", origin)])
        #expect(post.status == status, "\(fetchSite) \(origin)")
    }

    @Test("a public origin decides which Origin is the app's, whatever Host says")
    func publicOriginDecides() async throws {
        let app = try makeApp { $0.publicOrigin = try PublicOrigin("https://shop.example") }
        let client = TestClient(app.responder)
        client.defaultHeaders = [("Host", "127.0.0.1:8080")]
        let token = try #require(await client.get("/tabs/music").csrfToken)
        let foreign = await client.post(
            "/select", form: [("csrf", token), ("tab", "movies")], headers: [("Origin", "http://127.0.0.1:8080")])
        #expect(foreign.status == 403)
        let plain = await client.post(
            "/select", form: [("csrf", token), ("tab", "movies")], headers: [("Origin", "http://shop.example")])
        #expect(plain.status == 403, "the public origin's scheme is https")
        let own = await client.post(
            "/select", form: [("csrf", token), ("tab", "movies")], headers: [("Origin", "https://shop.example")])
        #expect(own.status == 303)
    }

    /// An app with routes that count what ran: a JSON API, a group with middleware, a
    /// webhook that takes other sites' requests, and a route that wants the token of JSON.
    final class Counted: Sendable {
        let ran = Mutex<[String]>([])
        func note(_ name: String) { ran.withLock { $0.append(name) } }
        var names: [String] { ran.withLock { $0 } }
    }

    struct Note: Codable, Sendable { var title: String }

    struct Admin: RouterMiddleware {
        let counted: Counted
        func handle(
            _ request: HTTPRequest, context: RequestContext,
            next: (HTTPRequest, RequestContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            counted.note("admin middleware")
            return try await next(request, context)
        }
    }

    static func appWithRoutes(_ counted: Counted) throws -> Application {
        let app = Application(configuration: sevenTabConfiguration(), log: quietLog)
        app.content(DemoCatalog())
        app.router.post("/api/notes") { request, _ in
            let note = try request.decode(as: Note.self)
            counted.note("notes \(note.title)")
            return JSONResponse(note, status: .created)
        }
        for method in [HTTPMethod.put, .patch, .delete] {
            app.router.on(method, "/api/notes/{id}") { _, _ in
                counted.note("\(method)")
                return HTTPResponse(status: .noContent)
            }
        }
        app.router.group("/admin").add(middleware: Admin(counted: counted)).post("/reset") { _, _ in
            counted.note("reset")
            return HTTPResponse(status: .noContent)
        }
        app.router.post("/hooks/payments", crossSite: .allowed) { _, _ in
            counted.note("webhook")
            return HTTPResponse(status: .accepted)
        }
        app.router.post("/api/strict") { request, context in
            try context.verifyFormToken(request)
            counted.note("strict")
            return HTTPResponse(status: .noContent)
        }
        app.router.get("/api/notes") { _, _ in
            counted.note("list")
            return [Note(title: "a")]
        }
        try app.build()
        return app
    }

    @Test("JSON from an API client (no browser headers) reaches an app's route; GET is never checked")
    func apiClientsWork() async throws {
        let counted = Counted()
        let client = TestClient(try Self.appWithRoutes(counted).responder)
        let created = await client.post("/api/notes", json: Note(title: "milk"))
        #expect(created.status == 201)
        #expect(await client.send(.delete, "/api/notes/3").status == 204)
        #expect(await client.get("/api/notes", headers: [("Sec-Fetch-Site", "cross-site")]).status == 200)
        #expect(counted.names == ["notes milk", "DELETE", "list"])
    }

    @Test(
        "an app's route refuses what a browser says another origin made: 403, nothing of it runs",
        arguments: [
            [("Sec-Fetch-Site", "cross-site")], [("Origin", "https://evil.example")], [("Origin", "null")],
            [("Sec-Fetch-Site", "same-site"), ("Origin", "https://sub.shop.example")],
        ])
    func crossSiteRefused(headers: [(String, String)]) async throws {
        let counted = Counted()
        let client = TestClient(try Self.appWithRoutes(counted).responder)
        client.defaultHeaders = [("Host", "shop.example")]
        let body = Array(#"{"title":"x"}"#.utf8)
        let json = [("Content-Type", "application/json")] + headers
        #expect(await client.send(.post, "/api/notes", body: body, headers: json).status == 403)
        for method in [HTTPMethod.put, .patch, .delete] {
            #expect(await client.send(method, "/api/notes/1", headers: headers).status == 403, "\(method)")
        }
        #expect(await client.send(.post, "/admin/reset", headers: headers).status == 403)
        #expect(counted.names.isEmpty, "neither the handlers nor the group's middleware ran: \(counted.names)")
        // The webhook opted out: it takes them.
        #expect(await client.send(.post, "/hooks/payments", body: body, headers: json).status == 202)
        #expect(counted.names == ["webhook"])
    }

    @Test(
        "a body any page can send without asking (a form, multipart, text/plain) needs the form token",
        arguments: ["application/x-www-form-urlencoded", "multipart/form-data; boundary=b", "text/plain"])
    func simpleBodiesNeedToken(type: String) async throws {
        let counted = Counted()
        let app = try Self.appWithRoutes(counted)
        let client = TestClient(app.responder)
        let body: [UInt8] =
            type.hasPrefix("multipart")
            ? Array("--b\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nx\r\n--b--\r\n".utf8)
            : Array((type == "text/plain" ? #"{"title":"x"}"# : "title=x").utf8)
        let refused = await client.send(.post, "/admin/reset", body: body, headers: [("Content-Type", type)])
        #expect(refused.status == 403)
        #expect(counted.names.isEmpty)
        // With the visitor's token (in the header, as a script sends it) the route runs.
        let token = try #require(await client.get("/tabs/music").csrfToken)
        let taken = await client.send(
            .post, "/admin/reset", body: body, headers: [("Content-Type", type), ("X-CSRF-Token", token)])
        #expect(taken.status == 204)
        #expect(counted.names == ["admin middleware", "reset"])
    }

    @Test("a form posted to an app's route with the page's token in its csrf field is taken; a forged one is not")
    func formWithToken() async throws {
        let counted = Counted()
        let client = TestClient(try Self.appWithRoutes(counted).responder)
        let token = try #require(await client.get("/tabs/music").csrfToken)
        #expect(await client.post("/admin/reset", form: [("csrf", token)]).status == 204)
        #expect(await client.post("/admin/reset", form: [("csrf", String(repeating: "A", count: 22))]).status == 403)
        #expect(counted.names == ["admin middleware", "reset"])
    }

    @Test("checking a form's token does not make an app's route rest on the session: a stale copy never runs it twice")
    func tokenCheckCommitsNothing() async throws {
        let counted = Counted()
        let store = StaleCopies()
        let app = Application(configuration: sevenTabConfiguration(), log: quietLog)
        app.content(DemoCatalog())
        app.sessionStore(store)
        app.router.post("/feedback") { _, _ in
            counted.note("feedback")
            return HTTPResponse(status: .noContent)
        }
        try app.build()
        let client = TestClient(app.responder)
        let token = try #require(await client.get("/tabs/music").csrfToken)
        // Every copy read from now on is stale: a request resting on the session would run again.
        store.stale.store(true, ordering: .relaxed)
        #expect(await client.post("/feedback", form: [("csrf", token), ("text", "hi")]).status == 204)
        #expect(counted.names == ["feedback"])
    }

    @Test("context.verifyFormToken: a script's JSON without the token is refused, with it taken")
    func verifyFormToken() async throws {
        let counted = Counted()
        let client = TestClient(try Self.appWithRoutes(counted).responder)
        let token = try #require(await client.get("/tabs/music").csrfToken)
        #expect(await client.post("/api/strict", json: Note(title: "x")).status == 403)
        #expect(
            await client.post("/api/strict", json: Note(title: "x"), headers: [("X-CSRF-Token", token)]).status == 204)
        #expect(counted.names == ["strict"])
    }
}

/// The memory store, but once `stale` is set every copy is reported stale (as another
/// instance's writes would make it): a request that rests on its session runs again.
private final class StaleCopies: SessionStore, EngineSessionStore {
    private let base = MemorySessionStore()
    let stale = Atomic<Bool>(false)

    func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? { base.load(id, now: now) }
    func insert(_ session: Session) throws(SessionStoreError) { base.insert(session) }
    func update(_ session: Session) throws(SessionStoreError) -> Session? { base.update(session) }
    func delete(_ id: SessionID) throws(SessionStoreError) { base.delete(id) }
    func sweep(now: Int64) throws(SessionStoreError) -> Int { base.sweep(now: now) }
    func checkReady() -> Bool { true }
    func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool { !stale.load(ordering: .relaxed) }
    func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? { nil }
    var readsEverythingAtOnce: Bool { false }
}
