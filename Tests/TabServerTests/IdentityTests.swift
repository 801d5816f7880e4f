// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerDemo
import TabServerHTTP
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// An app whose trusted proxy names the user in `X-Forwarded-User`.
private func makeIdentityApp(
    hooks: AppHooks = demoHooks(), configure: (inout AppConfiguration) throws -> Void = { _ in }
) throws -> Application {
    try makeApp(hooks: hooks) {
        $0.identityHeader = "X-Forwarded-User"
        try configure(&$0)
    }
}

/// A browser behind the authenticating proxy: every request names `user` (nil: signed out).
private final class Browser {
    let client: TestClient
    var user: String?

    init(_ app: Application, user: String?) {
        client = TestClient(app.responder)
        self.user = user
    }

    var headers: [(String, String)] { user.map { [("X-Forwarded-User", $0)] } ?? [] }
    func get(_ path: String) async -> TestResponse { await client.get(path, headers: headers) }
    func post(_ path: String, _ form: [(String, String)]) async -> TestResponse {
        await client.post(path, form: form, headers: headers)
    }

    /// One step in More → Edit, with the editor page's token and version.
    func customize(_ fields: [(String, String)]) async throws -> TestResponse {
        let editor = await get("/more/edit")
        let token = try #require(editor.csrfToken)
        let version = try #require(editor.customizeVersion)
        return await post("/more/edit", [("csrf", token), ("version", version)] + fields)
    }

    func select(_ tab: String) async throws -> TestResponse {
        let token = try await #require(get("/more").csrfToken)
        return await post("/select", [("csrf", token), ("tab", tab)])
    }

    var more: [String] { get async { await self.get("/more").moreTabIDs } }
}

@Suite("Signed-in users: state follows the user (in-process)")
struct IdentityTests {
    @Test("an arrangement made in one browser shows in the other; the selection does not")
    func arrangementFollows() async throws {
        let app = try makeIdentityApp()
        let laptop = Browser(app, user: "alice")
        let phone = Browser(app, user: "alice")
        await #expect(try laptop.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        await #expect(try laptop.customize([("action", "down"), ("tab", "music")]).status == 303)
        await #expect(laptop.more == ["tv", "podcasts", "purchased"])
        let laptopBar = await laptop.get("/tabs/music").barTabIDs
        #expect(laptopBar.prefix(3) == ["featured", "movies", "music"])
        await #expect(phone.more == ["tv", "podcasts", "purchased"], "the arrangement follows the user")
        await #expect(phone.get("/tabs/featured").barTabIDs == laptopBar)
        await #expect(try laptop.select("tv").location == "/tabs/tv")
        await #expect(laptop.get("/tabs/tv/shows/3").status == 200)
        await #expect(laptop.get("/").location == "/tabs/tv/shows/3")
        let phoneHome = await phone.get("/").location
        #expect(phoneHome != nil && phoneHome != "/tabs/tv/shows/3", "selection and positions stay per browser")
        // A language chosen on the phone shows on the laptop.
        let token = try await #require(phone.get("/more").csrfToken)
        await #expect(phone.post("/language", [("csrf", token), ("lang", "de")]).status == 303)
        await #expect(laptop.get("/more").language == "de")
        await #expect(
            Browser(app, user: "bob").more == ["podcasts", "audiobooks", "purchased"], "another user: default")
    }

    @Test("signing out falls back to the browser's own choices, unchanged; signing in again restores the user's")
    func signOut() async throws {
        let app = try makeIdentityApp()
        let browser = Browser(app, user: nil)
        await #expect(try browser.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        let anonymous = await browser.more
        #expect(!anonymous.contains("purchased"))
        let other = Browser(app, user: "alice")
        await #expect(try other.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        browser.user = "alice"
        await #expect(browser.more == ["tv", "podcasts", "purchased"], "the user's existing arrangement wins")
        await #expect(try browser.customize([("action", "more"), ("tab", "music")]).status == 303)
        browser.user = nil
        await #expect(browser.more == anonymous, "signed out: the anonymous arrangement, unchanged")
        browser.user = "alice"
        await #expect(browser.more.first == "music")
        await #expect(other.more.first == "music")
    }

    @Test("the first signed-in request merges the browser's choices into a user who has none")
    func mergeOnSignIn() async throws {
        let app = try makeIdentityApp()
        let browser = Browser(app, user: nil)
        await #expect(try browser.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        let anonymous = await browser.more
        browser.user = "carol"
        await #expect(browser.more == anonymous, "carol had the default: the browser's arrangement is taken")
        let phone = Browser(app, user: "carol")
        await #expect(phone.more == anonymous, "and now follows carol")
        // Merged once: a reset by carol elsewhere is not undone by this browser's old choices.
        await #expect(try phone.customize([("action", "reset")]).status == 303)
        await #expect(browser.more == ["podcasts", "audiobooks", "purchased"])
        browser.user = nil
        await #expect(browser.more == anonymous)
    }

    @Test("a header from an untrusted peer is ignored (and logged once); bad values count as absent")
    func spoofing() async throws {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(getpid()).log").path
        let descriptor = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            close(descriptor)
            unlink(logPath)
        }
        let log = LogSink(descriptor: descriptor)
        var configuration = sevenTabConfiguration()
        configuration.identityHeader = "X-Forwarded-User"
        let app = try buildApplication(
            configuration, content: DemoCatalog(), hooks: demoHooks(), redis: .standard, log: log)
        let alice = Browser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let aliceMore = await alice.more

        let spoofer = Browser(app, user: "alice")
        spoofer.client.remoteAddress = "203.0.113.9"
        await #expect(spoofer.more == ["podcasts", "audiobooks", "purchased"], "not alice's arrangement")
        await #expect(try spoofer.customize([("action", "more"), ("tab", "music")]).status == 303)
        await #expect(alice.more == aliceMore, "alice's record is untouched")
        log.flush()
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(text.components(separatedBy: "X-Forwarded-User").count - 1 == 1, "logged once: \(text)")

        for bad in ["", String(repeating: "a", count: 257), "ali\u{1}ce"] {
            let browser = Browser(app, user: bad)
            await #expect(browser.more == ["podcasts", "audiobooks", "purchased"], "\(bad.prefix(5).debugDescription)")
        }
        // 256 bytes is still a name.
        let long = Browser(app, user: String(repeating: "a", count: 256))
        await #expect(try long.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        await #expect(Browser(app, user: String(repeating: "a", count: 256)).more.contains("purchased") == false)
    }

    @Test("--identity-header takes a header name; empty turns it off; two values are no name")
    func configuration() async throws {
        func header(_ arguments: [String], _ environment: [String: String] = [:]) async throws -> String? {
            guard case .run(let parsed) = try AppConfiguration.parse(arguments: arguments, environment: environment)
            else { throw ConfigurationError("not a run") }
            return parsed.identityHeader
        }
        await #expect(try header(["--identity-header", "Remote-User"]) == "Remote-User")
        await #expect(try header([], ["TABSERVER_IDENTITY_HEADER": "X-Forwarded-Email"]) == "X-Forwarded-Email")
        await #expect(try header([]) == nil)
        await #expect(try header(["--identity-header="]) == nil)
        #expect(throws: ConfigurationError.self) {
            _ = try AppConfiguration.parse(arguments: ["--identity-header", "X User:"], environment: [:])
        }
        let app = try makeIdentityApp()
        let alice = Browser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let twice = TestClient(app.responder)
        let more = await twice.get("/more", headers: [("X-Forwarded-User", "alice"), ("X-Forwarded-User", "alice")])
        #expect(more.moreTabIDs == ["podcasts", "audiobooks", "purchased"])
    }

    @Test("with the feature off the header means nothing")
    func off() async throws {
        let app = try makeApp()
        let alice = Browser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        await #expect(Browser(app, user: "alice").more == ["podcasts", "audiobooks", "purchased"])
    }

    @Test("a cookie naming a user's record is refused: it starts a fresh session")
    func recordIsNoSession() async throws {
        let app = try makeIdentityApp()
        let alice = Browser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let forger = Browser(app, user: nil)
        forger.client.cookies["tabserver_session"] = SessionID.user("alice").text
        await #expect(forger.more == ["podcasts", "audiobooks", "purchased"])
        #expect(forger.client.cookies["tabserver_session"] == SessionID.user("alice").text, "no cookie for nothing")
    }

    @Test("a user's record written meanwhile by another device: the request runs again and applies once")
    func conflict() async throws {
        let store = InterferingSessionStore(
            MemorySessionStore(capacity: 100, lifetime: SessionLifetime()), interferences: 0)
        var configuration = sevenTabConfiguration()
        configuration.identityHeader = "X-Forwarded-User"
        let app = try buildApplication(
            configuration, content: DemoCatalog(), hooks: demoHooks(), sessionStore: store, log: quietLog)
        let laptop = Browser(app, user: "alice")
        let phone = Browser(app, user: "alice")
        await #expect(try laptop.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let editor = await phone.get("/more/edit")
        store.arm(1)
        let moved = await phone.post(
            "/more/edit",
            [
                ("csrf", try #require(editor.csrfToken)), ("version", try #require(editor.customizeVersion)),
                ("action", "up"), ("tab", "audiobooks"),
            ])
        #expect(moved.status == 303)
        #expect(store.conflicts.load(ordering: .relaxed) == 1)
        await #expect(
            laptop.get("/tabs/featured").barTabIDs.prefix(4) == ["featured", "music", "audiobooks", "movies"])
    }

    @Test("a cleared badge follows the user; badges the app sets for a browser or for the user show")
    func badges() async throws {
        let app = try makeIdentityApp()
        let laptop = Browser(app, user: "alice")
        let phone = Browser(app, user: "alice")
        // The text of `tab`'s badge in the bar of Featured as `browser` sees it.
        func badge(_ browser: Browser, _ tab: String) async throws -> String? {
            try await browser.get("/tabs/featured").document.first(
                "nav.tab-bar button[name=tab][value=\(tab)] .tab-badge")?.text
        }
        #expect(try await badge(phone, "music") == "3")
        await #expect(try laptop.select("music").status == 303)
        #expect(try await badge(laptop, "music") == nil)
        #expect(try await badge(phone, "music") == nil, "music's badge was cleared by alice")
        #expect(try await badge(Browser(app, user: "bob"), "music") == "3")

        // For one browser of hers (by session id), and for alice everywhere (by her record's id).
        let laptopCookie = try #require(laptop.client.cookies["tabserver_session"])
        let laptopID = try #require(SessionID(cookieValue: laptopCookie))
        #expect(try app.setBadge(.badge(.text("Sale")), forTab: "movies", visitor: laptopID))
        #expect(try await badge(laptop, "movies") == "Sale")
        #expect(try await badge(phone, "movies") == nil)
        #expect(try app.setBadge(.badge(.text("Gift")), forTab: "tv", visitor: .user("alice")))
        #expect(try await badge(laptop, "tv") == "Gift")
        #expect(try await badge(phone, "tv") == "Gift")
        laptop.user = nil
        #expect(try await badge(laptop, "movies") == "Sale", "the browser's own badge")
        #expect(try await badge(laptop, "tv") == nil, "signed out")
        #expect(try await badge(laptop, "music") == "3", "the anonymous state never cleared it")
    }

    @Test("hooks and the content provider see the user")
    func hooksSeeUser() async throws {
        let seen = Mutex<[String]>([])
        var hooks = demoHooks()
        hooks.didSelect = { tab, _ in seen.withLock { $0.append("didSelect \(tab.id) \(AppHooks.user ?? "-")") } }
        let base = hooks.shouldSelect
        hooks.shouldSelect = { tab, state, confirmed in
            seen.withLock { $0.append("shouldSelect \(AppHooks.user ?? "-")") }
            return base(tab, state, confirmed)
        }
        let provider = UserRecordingCatalog()
        var configuration = sevenTabConfiguration()
        configuration.identityHeader = "X-Forwarded-User"
        let app = try buildApplication(configuration, content: provider, hooks: hooks, log: quietLog)
        let alice = Browser(app, user: "alice")
        await #expect(try alice.select("tv").status == 303)
        await #expect(alice.get("/tabs/tv").status == 200)
        alice.user = nil
        await #expect(try alice.select("music").status == 303)
        await #expect(alice.get("/tabs/music").status == 200)
        #expect(
            seen.withLock { $0 } == ["shouldSelect alice", "didSelect tv alice", "shouldSelect -", "didSelect music -"])
        #expect(provider.users == ["alice", nil])
        #expect(AppHooks.user == nil)
    }
}

/// The demo catalogue, noting which user each page was asked for.
private final class UserRecordingCatalog: TabContentProvider {
    private let base = DemoCatalog()
    private let seen = Mutex<[String?]>([])
    var users: [String?] { seen.withLock { $0 } }

    func page(for request: HTTPRequest, context: RequestContext) async throws -> TabPage? {
        seen.withLock { $0.append(context.user) }
        return try await base.page(for: request, context: context)
    }
}

@Suite(
    "Signed-in users behind a real nginx (auth_request) and two instances on Redis", .serialized,
    .enabled(if: NginxServer.isInstalled, "nginx is not installed"))
struct IdentityProxyTests {
    /// A browser talking to nginx: its own cookie jar, and the user the sign-in service
    /// names for it (sent as `X-Test-User`, which only the stand-in auth service reads).
    final class Jar {
        let port: Int
        var cookie: String?
        var user: String?

        init(port: Int, user: String?) {
            self.port = port
            self.user = user
        }

        func send(_ method: String, _ path: String, form: String? = nil, extra: [(String, String)] = []) throws
            -> TestResponse
        {
            let connection = try #require(RawHTTPConnection(port: port))
            var request = "\(method) \(path) HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n"
            if let cookie { request += "Cookie: \(cookie)\r\n" }
            if let user { request += "X-Test-User: \(user)\r\n" }
            for (name, value) in extra { request += "\(name): \(value)\r\n" }
            if let form {
                request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
            }
            request += "\r\n" + (form ?? "")
            #expect(connection.send(request))
            let response = try #require(connection.readResponse())
            if let set = response.headers["set-cookie"] { cookie = String(set.split(separator: ";")[0]) }
            return response
        }

        func customize(_ fields: String) throws -> TestResponse {
            let editor = try send("GET", "/more/edit")
            let token = try #require(editor.csrfToken)
            let version = try #require(editor.customizeVersion)
            return try send("POST", "/more/edit", form: "csrf=\(token)&version=\(version)&\(fields)")
        }

        func more(extra: [(String, String)] = []) throws -> [String] {
            try send("GET", "/more", extra: extra).moreTabIDs
        }
    }

    @Test("two cookie jars, one user: the arrangement follows, the selection does not; sign-out and spoofing")
    func throughNginx() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        func instance() throws -> Application {
            try makeApp {
                $0.sessions = try SessionStoreConfiguration(redis.url)
                $0.identityHeader = "X-Forwarded-User"
                $0.csrfSecret = String(repeating: "s", count: 40)
            }
        }
        let first = try instance().start()
        let second = try instance().start()
        defer {
            first.shutdown()
            second.shutdown()
        }
        let authPort = try freeLoopbackPort()
        let nginx = try NginxServer(
            upstreams: """
                upstream tabservers {
                  server 127.0.0.1:\(first.port);
                  server 127.0.0.1:\(second.port);
                }
                # Stand-in for oauth2-proxy: signs in whoever X-Test-User names.
                server {
                  listen 127.0.0.1:\(authPort);
                  location = /oauth2/auth {
                    add_header X-Auth-Request-User $http_x_test_user always;
                    return 200;
                  }
                }
                """,
            locations: """
                location = /oauth2/auth {
                  internal;
                  proxy_pass http://127.0.0.1:\(authPort);
                  proxy_pass_request_body off;
                  proxy_set_header Content-Length "";
                }
                location / {
                  auth_request /oauth2/auth;
                  auth_request_set $user $upstream_http_x_auth_request_user;
                  proxy_pass http://tabservers;
                  proxy_set_header Host $host;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                  proxy_set_header X-Forwarded-User $user;
                }
                """)
        defer { nginx.stop() }
        let standard = ["podcasts", "audiobooks", "purchased"]

        let laptop = Jar(port: nginx.port, user: "alice")
        let phone = Jar(port: nginx.port, user: "alice")
        #expect(try laptop.customize("action=bar&tab=audiobooks").status == 303)
        let moved = try laptop.customize("action=down&tab=music")
        #expect(
            moved.status == 303,
            "\(moved.status) then \(moved.customizeVersion ?? "-") \(moved.moreTabIDs) \(String(moved.body.split(separator: "\n").filter { $0.contains("notice") || $0.contains("message") || $0.contains("role=\"alert\"") }.joined().prefix(400)))"
        )
        let arranged = try laptop.more()
        #expect(arranged == ["tv", "podcasts", "purchased"])
        // Round-robin: these land on both instances, which agree through Redis.
        for _ in 0..<4 { #expect(try phone.more() == arranged, "the arrangement follows alice") }
        #expect(try phone.send("GET", "/tabs/featured").barTabIDs.prefix(3) == ["featured", "movies", "music"])

        let token = try #require(try laptop.send("GET", "/more").csrfToken)
        #expect(try laptop.send("POST", "/select", form: "csrf=\(token)&tab=tv").location == "/tabs/tv")
        #expect(try laptop.send("GET", "/tabs/tv/shows/3").status == 200)
        #expect(try laptop.send("GET", "/").location == "/tabs/tv/shows/3")
        #expect(try phone.send("GET", "/").location != "/tabs/tv/shows/3", "the selection stays per browser")

        // Signed out: the anonymous state (here the default), whatever the client claims.
        phone.user = nil
        #expect(try phone.more() == standard)
        #expect(try phone.more(extra: [("X-Forwarded-User", "alice")]) == standard, "nginx replaces a client's header")
        phone.user = "alice"
        #expect(try phone.more() == arranged)

        // Another device's change shows at once on the other instance too.
        #expect(try phone.customize("action=reset").status == 303)
        for _ in 0..<2 { #expect(try laptop.more() == standard) }
        #expect(first.completedRequests > 0 && second.completedRequests > 0, "both instances served")
    }

    @Test("an arrangement changed on one device redraws the bar on the user's other devices (live, across instances)")
    func liveBar() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        func instance() async throws -> Application {
            try makeApp {
                $0.sessions = try SessionStoreConfiguration(redis.url)
                $0.identityHeader = "X-Forwarded-User"
            }
        }
        let first = try await instance()
        let second = try await instance()
        let server = try second.start()
        defer { server.shutdown() }
        let laptop = Browser(first, user: "alice")
        let phone = Browser(second, user: "alice")
        _ = await phone.get("/more/edit")
        let cookie = try #require(phone.client.cookies["tabserver_session"])
        let stream = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 3))
        #expect(
            stream.send(
                "GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\nX-Forwarded-User: alice\r\n"
                    + "Cookie: tabserver_session=\(cookie)\r\n\r\n"))
        var received = ""
        for _ in 0..<40 where !received.contains("retry:") {
            received += stream.readAvailable(timeoutMilliseconds: 50) ?? ""
        }
        #expect(received.hasPrefix("HTTP/1.1 200 "))
        // The relay subscribes in the background: keep changing until the event arrives.
        let actions = [("bar", "audiobooks"), ("up", "audiobooks"), ("down", "audiobooks")]
        for attempt in 0..<20 where !received.contains("event: bar") {
            let (action, tab) = actions[attempt % actions.count]
            _ = try await laptop.customize([("action", action), ("tab", tab)])
            for _ in 0..<4 where !received.contains("event: bar") {
                received += stream.readAvailable(timeoutMilliseconds: 50) ?? ""
            }
        }
        #expect(received.contains("event: bar"))
    }
}
