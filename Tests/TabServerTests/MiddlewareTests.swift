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

/// The app's own middleware: around every answer (static files, the manifest, the service
/// worker, pages, errors), async, in the order added, handing typed values on.
@Suite("Middleware")
struct MiddlewareTests {
    /// The README's example: visitors the authenticating proxy did not name are sent to
    /// sign in, except for health checks and the sign-in page itself.
    struct RequireSignIn: RouterMiddleware {
        func handle(
            _ request: HTTPRequest, context: RequestContext,
            next: (HTTPRequest, RequestContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            if request.headers["x-forwarded-user"] != nil || request.path == "/healthz" || request.path == "/sign-in" {
                return try await next(request, context)
            }
            var response = HTTPResponse(status: .seeOther)
            response.headers.add("Location", "/sign-in")
            return response
        }
    }

    /// docs/swift-api.md's step that answers by itself: 401 with JSON without the key.
    struct RequireAPIKey: RouterMiddleware {
        let key: String
        func handle(
            _ request: HTTPRequest, context: RequestContext,
            next: (HTTPRequest, RequestContext) async throws -> HTTPResponse
        ) async throws -> HTTPResponse {
            guard request.headers["x-api-key"] == key else {
                return try JSONResponse(["error": "an X-API-Key header is needed"], status: .unauthorized)
                    .response(for: request)
            }
            return try await next(request, context)
        }
    }

    @Test("a group's step answers by itself: 401 with a JSON body; with the key the route answers 201")
    func answersByItself() async throws {
        let app = Application(configuration: TestFixtures.configuration(), log: quietLog)
        app.content(DemoCatalog())
        let api = app.router.group("/api").add(middleware: RequireAPIKey(key: "k1"))
        api.post("/items") { _, _ in JSONResponse(["made": 1], status: .created) }
        let client = try TestClient(app)
        let refused = await client.post("/api/items", json: ["name": "x"])
        #expect(refused.status == 401)
        #expect(refused.headers["content-type"] == "application/json")
        #expect(refused.body == #"{"error":"an X-API-Key header is needed"}"#)
        let taken = await client.post("/api/items", json: ["name": "x"], headers: [("X-API-Key", "k1")])
        #expect(taken.status == 201)
        #expect(taken.body == #"{"made":1}"#)
    }

    /// What a sign-in step found, for the routes after it.
    struct Account: Sendable { let name: String }

    func app(
        _ middleware: [any RouterMiddleware<RequestContext>], configure: (inout AppConfiguration) -> Void = { _ in }
    )
        throws -> Application
    {
        var configuration = TestFixtures.configuration()
        configure(&configuration)
        return try buildApplication(configuration, content: DemoCatalog(), middleware: middleware, log: quietLog)
    }

    @Test("a sign-in check wraps every answer: static files too; health checks pass")
    func signIn() async throws {
        let client = TestClient(try app([RequireSignIn()]).responder)
        let stranger = await client.get("/tabs/music")
        #expect(stranger.status == 303)
        #expect(stranger.location == "/sign-in")
        #expect(await client.get("/healthz").status == 200)
        #expect(await client.get("/css/app.css").status == 303, "static files pass through the app's steps")
        #expect(await client.get("/tabs/music", headers: [("X-Forwarded-User", "alice")]).status == 200)
    }

    @Test("steps run in order on the path below the base path and change every answer: pages, files, posts, errors")
    func orderAndAnswers() async throws {
        let seen = Mutex<[String]>([])
        let first = MiddlewareStep<RequestContext>("first") { request, context, next in
            seen.withLock { $0.append("first \(request.path)") }
            var response = try await next(request, context)
            response.headers.add("X-Step", "first")
            return response
        }
        let second = MiddlewareStep<RequestContext>("second") { request, context, next in
            seen.withLock { $0.append("second") }
            return try await next(request, context)
        }
        var configuration = TestFixtures.configuration()
        configuration.basePath = "/app"
        configuration.sessions = .sqlite(
            path: TestFixtures.temporaryDirectory("tabserver-middleware") + "/s.sqlite", maxSessions: 100)
        let app = try buildApplication(
            configuration, content: DemoCatalog(), middleware: [first, second], log: quietLog)
        let client = TestClient(app.responder)
        let page = await client.get("/app/tabs/music")
        #expect(page.status == 200)
        #expect(page.headers["x-step"] == "first")
        #expect(seen.withLock { $0 } == ["first /tabs/music", "second"])
        // A post whose answer waits for the SQLite commit: the header is still added.
        let posted = await client.post("/app/select", form: [("csrf", page.csrfToken ?? ""), ("tab", "movies")])
        #expect(posted.status == 303)
        #expect(posted.headers["x-step"] == "first")
        for path in ["/app/css/app.css", "/app/manifest.webmanifest", "/app/sw.js", "/app/tabs/nowhere", "/app/more"] {
            #expect(await client.get(path).headers["x-step"] == "first", "\(path)")
        }
    }

    @Test("a step hands a typed value to the routes; a route that needs one no step set is a 500, logged")
    func typedValues() async throws {
        let signIn = MiddlewareStep<RequestContext>("account") { request, context, next in
            var context = context
            if let name = request.headers["x-account"] { context.values[Account.self] = Account(name: name) }
            return try await next(request, context)
        }
        var configuration = TestFixtures.configuration()
        configuration.accessLog = false
        let app = Application(configuration: configuration, log: quietLog)
        app.add(middleware: signIn)
        app.router.get("/api/me") { _, context in HTTPResponse.text(try context.values.require(Account.self).name) }
        let client = try TestClient(app)
        #expect(await client.get("/api/me", headers: [("X-Account", "ada")]).body == "ada")
        #expect(await client.get("/api/me").status == 500)
    }

    @Test("a step that throws gets the error page for its error, and the steps outside it still see an answer")
    func throwingStep() async throws {
        let outer = MiddlewareStep<RequestContext>("outer") { request, context, next in
            var response = try await next(request, context)
            response.headers.add("X-Outer", String(response.status.code))
            return response
        }
        let refuse = MiddlewareStep<RequestContext>("refuse") { request, context, next in
            if request.path.hasPrefix("/tabs/tv") { throw HTTPError.forbidden("Not for you.") }
            return try await next(request, context)
        }
        let client = TestClient(try app([outer, refuse]).responder)
        let refused = await client.get("/tabs/tv")
        #expect(refused.status == 403)
        #expect(refused.headers["x-outer"] == "403")
        #expect(refused.body.contains("Not for you."))
    }

    /// A count a step keeps for each visitor.
    struct Visits: VisitorValue {
        static let key = "test.visits"
        var count: Int
    }

    /// A step that counts the visitor's requests in their session before the route runs.
    static let countVisits = MiddlewareStep<RequestContext>("visits") { request, context, next in
        context.setVisitorValue(Visits(count: (context.visitorValue(Visits.self)?.count ?? 0) + 1))
        return try await next(request, context)
    }

    /// The demo's app with `countVisits` around every answer and `GET /api/visits`, which
    /// answers the count the visitor's session holds.
    func countingApp(_ configure: (inout AppConfiguration) -> Void = { _ in }, store: (any SessionStore)? = nil)
        -> Application
    {
        var configuration = TestFixtures.configuration()
        configuration.accessLog = false
        configure(&configuration)
        let app = Application(configuration: configuration, log: quietLog)
        app.content(DemoCatalog())
        if let store { app.sessionStore(store) }
        app.add(middleware: Self.countVisits)
        app.router.get("/api/visits") { _, context in
            HTTPResponse.text(String(context.visitorValue(Visits.self)?.count ?? 0))
        }
        return app
    }

    @Test(
        "a visitor value a step stores before the route runs is stored with the request's commit, on either store",
        arguments: ["memory", "sqlite"])
    func visitorValueBeforeNext(store: String) async throws {
        let app = countingApp { configuration in
            if store == "sqlite" {
                configuration.sessions = .sqlite(
                    path: TestFixtures.temporaryDirectory("tabserver-middleware-values") + "/s.sqlite", maxSessions: 100
                )
            }
        }
        let counted = app.router.group("/api/counted").add(middleware: Self.countVisits)
        counted.get("now") { _, context in HTTPResponse.text(String(context.visitorValue(Visits.self)?.count ?? 0)) }
        let client = try TestClient(app)
        var counts: [String] = []
        counts.append(await client.get("/api/visits").body)
        #expect(!client.cookies.isEmpty, "the first request's new session is sent")
        counts.append(await client.get("/api/visits").body)
        // The app's step and the group's step each count, both stored.
        counts.append(await client.get("/api/counted/now").body)
        counts.append(await client.get("/api/visits").body)
        // A tab page stores the step's value too, seen again as well (its page is not taken
        // from the cache of finished pages, which would commit nothing).
        #expect(await client.get("/tabs/music").status == 200)
        #expect(await client.get("/tabs/music").status == 200)
        counts.append(await client.get("/api/visits").body)
        #expect(counts == ["1", "2", "4", "5", "8"])
    }

    @Test("a step's visitor value is stored once more when the request starts again after a conflicting write")
    func visitorValueAfterConflict() async throws {
        let store = InterferingSessionStore(
            MemorySessionStore(capacity: 100, lifetime: SessionLifetime()), interferences: 0)
        let client = try TestClient(countingApp(store: store))
        #expect(await client.get("/api/visits").body == "1")
        store.arm(2)
        // The step ran once; each attempt stores its count on the session as it then is.
        #expect(await client.get("/api/visits").body == "2")
        #expect(store.conflicts.load(ordering: .relaxed) == 2, "the request really was run again")
        #expect(await client.get("/api/visits").body == "3")
    }

    @Test("one visitor's requests at once, through a step that reads and stores a value: none runs twice, all answer")
    func concurrentVisitorValues() async throws {
        let store = InterferingSessionStore(
            MemorySessionStore(capacity: 100, lifetime: SessionLifetime()), interferences: 0)
        let app = countingApp(store: store)
        // A route that holds the visitor's lock a while: the others' steps read the count
        // meanwhile, before they wait for the lock.
        app.router.get("/api/slow") { _, context in
            try await Task.sleep(for: .milliseconds(5))
            return HTTPResponse.text(String(context.visitorValue(Visits.self)?.count ?? 0))
        }
        let first = try TestClient(app)
        #expect(await first.get("/api/visits").body == "1")
        let (responder, cookies) = (app.responder, first.cookies)
        let answers = await withTaskGroup(of: (Int, String).self) { group in
            for _ in 0..<16 {
                group.addTask {
                    let client = TestClient(responder)
                    client.cookies = cookies
                    let response = await client.get("/api/slow")
                    return (response.status, response.body)
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 16 && answers.allSatisfy { $0.0 == 200 })
        // Each attempt ran under the visitor's lock on the session as stored then: no write
        // lost a compare-and-set, so no request ran its route a second time.
        #expect(store.conflicts.load(ordering: .relaxed) == 0)
        // The step read the count before the lock: requests at once may store the same one.
        let last = Int(await first.get("/api/visits").body) ?? 0
        #expect((3...18).contains(last))
    }
}
