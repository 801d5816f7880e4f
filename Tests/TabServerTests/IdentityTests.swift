// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

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
final class SignedInBrowser {
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
        let laptop = SignedInBrowser(app, user: "alice")
        let phone = SignedInBrowser(app, user: "alice")
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
            SignedInBrowser(app, user: "bob").more == ["podcasts", "audiobooks", "purchased"], "another user: default")
    }

    @Test("signing out falls back to the browser's own choices, unchanged; signing in again restores the user's")
    func signOut() async throws {
        let app = try makeIdentityApp()
        let browser = SignedInBrowser(app, user: nil)
        await #expect(try browser.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        let anonymous = await browser.more
        #expect(!anonymous.contains("purchased"))
        let other = SignedInBrowser(app, user: "alice")
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
        let browser = SignedInBrowser(app, user: nil)
        await #expect(try browser.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        let anonymous = await browser.more
        browser.user = "carol"
        await #expect(browser.more == anonymous, "carol had the default: the browser's arrangement is taken")
        let phone = SignedInBrowser(app, user: "carol")
        await #expect(phone.more == anonymous, "and now follows carol")
        // Merged once: a reset by carol elsewhere is not undone by this browser's old choices.
        await #expect(try phone.customize([("action", "reset")]).status == 303)
        await #expect(browser.more == ["podcasts", "audiobooks", "purchased"])
        browser.user = nil
        await #expect(browser.more == anonymous)
    }

    @Test("tabs hidden or shown in Edit follow the user as the order does, and merge on the first sign-in")
    func hiddenTabsFollow() async throws {
        let path = TestFixtures.temporaryDirectory("identity-hidden") + "/tabs.json"
        TestFixtures.write(HiddenTabsRouteTests.tabs, to: path)
        let app = try makeIdentityApp { $0.tabsFile = path }
        let laptop = SignedInBrowser(app, user: "alice")
        let phone = SignedInBrowser(app, user: "alice")
        await #expect(phone.get("/tabs/featured").barTabIDs.contains("movies"))
        await #expect(try laptop.customize([("action", "hide"), ("tab", "movies")]).status == 303)
        await #expect(!laptop.get("/tabs/featured").barTabIDs.contains("movies"))
        await #expect(!phone.get("/tabs/featured").barTabIDs.contains("movies"), "the hidden tab follows the user")
        await #expect(try phone.customize([("action", "show"), ("tab", "tv")]).status == 303)
        await #expect(laptop.get("/tabs/featured").barTabIDs.contains("tv"), "a tab shown follows the user too")
        laptop.user = nil
        await #expect(laptop.get("/tabs/featured").barTabIDs.contains("movies"), "signed out: the browser's own")
        // A browser's own choice is merged into a user who has none, once.
        let browser = SignedInBrowser(app, user: nil)
        await #expect(try browser.customize([("action", "hide"), ("tab", "movies")]).status == 303)
        browser.user = "carol"
        await #expect(!browser.get("/tabs/featured").barTabIDs.contains("movies"))
        let carolsPhone = SignedInBrowser(app, user: "carol")
        await #expect(!carolsPhone.get("/tabs/featured").barTabIDs.contains("movies"), "and now follows carol")
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
        let alice = SignedInBrowser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let aliceMore = await alice.more

        let spoofer = SignedInBrowser(app, user: "alice")
        spoofer.client.remoteAddress = "203.0.113.9"
        await #expect(spoofer.more == ["podcasts", "audiobooks", "purchased"], "not alice's arrangement")
        await #expect(try spoofer.customize([("action", "more"), ("tab", "music")]).status == 303)
        await #expect(alice.more == aliceMore, "alice's record is untouched")
        log.flush()
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(text.components(separatedBy: "X-Forwarded-User").count - 1 == 1, "logged once: \(text)")

        for bad in ["", String(repeating: "a", count: 257), "ali\u{1}ce"] {
            let browser = SignedInBrowser(app, user: bad)
            await #expect(browser.more == ["podcasts", "audiobooks", "purchased"], "\(bad.prefix(5).debugDescription)")
        }
        // 256 bytes is still a name.
        let long = SignedInBrowser(app, user: String(repeating: "a", count: 256))
        await #expect(try long.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        await #expect(
            SignedInBrowser(app, user: String(repeating: "a", count: 256)).more.contains("purchased") == false)
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
        let alice = SignedInBrowser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let twice = TestClient(app.responder)
        let more = await twice.get("/more", headers: [("X-Forwarded-User", "alice"), ("X-Forwarded-User", "alice")])
        #expect(more.moreTabIDs == ["podcasts", "audiobooks", "purchased"])
    }

    @Test("with the feature off the header means nothing")
    func off() async throws {
        let app = try makeApp()
        let alice = SignedInBrowser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        await #expect(SignedInBrowser(app, user: "alice").more == ["podcasts", "audiobooks", "purchased"])
    }

    @Test("a cookie naming a user's record is refused: it starts a fresh session")
    func recordIsNoSession() async throws {
        let app = try makeIdentityApp()
        let alice = SignedInBrowser(app, user: "alice")
        await #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let forger = SignedInBrowser(app, user: nil)
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
        let laptop = SignedInBrowser(app, user: "alice")
        let phone = SignedInBrowser(app, user: "alice")
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
        let laptop = SignedInBrowser(app, user: "alice")
        let phone = SignedInBrowser(app, user: "alice")
        // The text of `tab`'s badge in the bar of Featured as `browser` sees it.
        func badge(_ browser: SignedInBrowser, _ tab: String) async throws -> String? {
            try await browser.get("/tabs/featured").document.first(
                "nav.tab-bar button[name=tab][value=\(tab)] .tab-badge")?.text
        }
        #expect(try await badge(phone, "music") == "3")
        await #expect(try laptop.select("music").status == 303)
        #expect(try await badge(laptop, "music") == nil)
        #expect(try await badge(phone, "music") == nil, "music's badge was cleared by alice")
        #expect(try await badge(SignedInBrowser(app, user: "bob"), "music") == "3")

        // For one browser of hers (by session id), and for alice everywhere (by her record's id).
        let laptopCookie = try #require(laptop.client.cookies["tabserver_session"])
        let laptopID = try #require(SessionID(cookieValue: laptopCookie))
        #expect(try await app.setBadge(.badge(.text("Sale")), forTab: "movies", visitor: laptopID))
        #expect(try await badge(laptop, "movies") == "Sale")
        #expect(try await badge(phone, "movies") == nil)
        #expect(try await app.setBadge(.badge(.text("Gift")), forTab: "tv", visitor: .user("alice")))
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
        let alice = SignedInBrowser(app, user: "alice")
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
