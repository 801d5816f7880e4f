// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerCore
import TabServerDemo
import TabServerHTTP
import TabServerTesting
import TabServerWeb
import Testing

/// The app's own steps in the middleware chain, after the library's.
@Suite("Middleware")
struct MiddlewareTests {
    /// The README's example: visitors the authenticating proxy did not name are sent to
    /// sign in, except for health checks and the static files (which come earlier).
    struct RequireSignIn: Middleware {
        func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
            if request.headers["x-forwarded-user"] != nil || request.path == "/healthz" || request.path == "/sign-in" {
                return next(request)
            }
            return .now(.redirect(to: "/sign-in"))
        }
    }

    func app(_ middleware: [any Middleware], configure: (inout AppConfiguration) -> Void = { _ in }) throws
        -> Application
    {
        var configuration = TestFixtures.configuration()
        configure(&configuration)
        return try buildApplication(configuration, content: DemoCatalog(), middleware: middleware, log: quietLog)
    }

    @Test("a sign-in check: strangers are sent to sign in, static files and health checks still answer")
    func signIn() throws {
        let client = TestClient(try app([RequireSignIn()]).responder)
        let stranger = client.get("/tabs/music")
        #expect(stranger.status == 303)
        #expect(stranger.location == "/sign-in")
        #expect(client.get("/healthz").status == 200)
        #expect(client.get("/css/app.css").status == 200, "static files come before the app's steps")
        #expect(client.get("/tabs/music", headers: [("X-Forwarded-User", "alice")]).status == 200)
    }

    @Test("steps run in order, see the path below the base path, and can change every answer, deferred ones too")
    func orderAndAnswers() throws {
        let seen = Mutex<[String]>([])
        let first = MiddlewareStep("first") { request, next in
            seen.withLock { $0.append("first \(request.path)") }
            return next(request).map { response in
                var response = response
                response.headers.add("X-Step", "first")
                return response
            }
        }
        let second = MiddlewareStep("second") { request, next in
            seen.withLock { $0.append("second") }
            return next(request)
        }
        var configuration = TestFixtures.configuration()
        configuration.basePath = "/app"  // metrics stay off: their step is left out
        configuration.sessions = .sqlite(
            path: TestFixtures.temporaryDirectory("tabserver-middleware") + "/s.sqlite", maxSessions: 100)
        let app = try buildApplication(
            configuration, content: DemoCatalog(), middleware: [first, second], log: quietLog)
        let client = TestClient(app.responder)
        let page = client.get("/app/tabs/music")
        #expect(page.status == 200)
        #expect(page.headers["x-step"] == "first")
        #expect(seen.withLock { $0 } == ["first /tabs/music", "second"])
        // A post whose answer waits for the SQLite commit: the header is still added.
        let posted = client.post("/app/select", form: [("csrf", page.csrfToken ?? ""), ("tab", "movies")])
        #expect(posted.status == 303)
        #expect(posted.headers["x-step"] == "first")
        #expect(
            app.responder.middleware.steps.map { "\($0)" } == [
                "admin backup", "base path", "installed app (manifest, service worker)", "static files",
                "offline cache key", "first", "second",
            ])
    }
}
