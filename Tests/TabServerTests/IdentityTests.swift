import Foundation
import HTTPTypes
import Sessions
import Synchronization
import TabServerCore
import TabServerDemo
import TestSupport
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
    func get(_ path: String) -> TestResponse { client.get(path, headers: headers) }
    func post(_ path: String, _ form: [(String, String)]) -> TestResponse {
        client.post(path, form: form, headers: headers)
    }

    /// One step in More → Edit, with the editor page's token and version.
    func customize(_ fields: [(String, String)]) throws -> TestResponse {
        let editor = get("/more/edit")
        let token = try #require(editor.csrfToken)
        let version = try #require(editor.customizeVersion)
        return post("/more/edit", [("csrf", token), ("version", version)] + fields)
    }

    func select(_ tab: String) throws -> TestResponse {
        let token = try #require(get("/more").csrfToken)
        return post("/select", [("csrf", token), ("tab", tab)])
    }

    var more: [String] { self.get("/more").moreTabIDs }
}

@Suite("Signed-in users: state follows the user (in-process)")
struct IdentityTests {
    @Test("an arrangement made in one browser shows in the other; the selection does not")
    func arrangementFollows() throws {
        let app = try makeIdentityApp()
        let laptop = Browser(app, user: "alice")
        let phone = Browser(app, user: "alice")
        #expect(try laptop.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        #expect(try laptop.customize([("action", "down"), ("tab", "music")]).status == 303)
        #expect(laptop.more == ["tv", "podcasts", "purchased"])
        let laptopBar = laptop.get("/tabs/music").barTabIDs
        #expect(laptopBar.prefix(3) == ["featured", "movies", "music"])
        #expect(phone.more == ["tv", "podcasts", "purchased"], "the arrangement follows the user")
        #expect(phone.get("/tabs/featured").barTabIDs == laptopBar)
        #expect(try laptop.select("tv").location == "/tabs/tv")
        #expect(laptop.get("/tabs/tv/shows/3").status == 200)
        #expect(laptop.get("/").location == "/tabs/tv/shows/3")
        let phoneHome = phone.get("/").location
        #expect(phoneHome != nil && phoneHome != "/tabs/tv/shows/3", "selection and positions stay per browser")
        // A language chosen on the phone shows on the laptop.
        let token = try #require(phone.get("/more").csrfToken)
        #expect(phone.post("/language", [("csrf", token), ("lang", "de")]).status == 303)
        #expect(laptop.get("/more").body.contains("<html lang=\"de\""))
        #expect(Browser(app, user: "bob").more == ["podcasts", "audiobooks", "purchased"], "another user: default")
    }

    @Test("signing out falls back to the browser's own choices, unchanged; signing in again restores the user's")
    func signOut() throws {
        let app = try makeIdentityApp()
        let browser = Browser(app, user: nil)
        #expect(try browser.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        let anonymous = browser.more
        #expect(!anonymous.contains("purchased"))
        let other = Browser(app, user: "alice")
        #expect(try other.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        browser.user = "alice"
        #expect(browser.more == ["tv", "podcasts", "purchased"], "the user's existing arrangement wins")
        #expect(try browser.customize([("action", "more"), ("tab", "music")]).status == 303)
        browser.user = nil
        #expect(browser.more == anonymous, "signed out: the anonymous arrangement, unchanged")
        browser.user = "alice"
        #expect(browser.more.first == "music")
        #expect(other.more.first == "music")
    }

    @Test("the first signed-in request merges the browser's choices into a user who has none")
    func mergeOnSignIn() throws {
        let app = try makeIdentityApp()
        let browser = Browser(app, user: nil)
        #expect(try browser.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        let anonymous = browser.more
        browser.user = "carol"
        #expect(browser.more == anonymous, "carol had the default: the browser's arrangement is taken")
        let phone = Browser(app, user: "carol")
        #expect(phone.more == anonymous, "and now follows carol")
        // Merged once: a reset by carol elsewhere is not undone by this browser's old choices.
        #expect(try phone.customize([("action", "reset")]).status == 303)
        #expect(browser.more == ["podcasts", "audiobooks", "purchased"])
        browser.user = nil
        #expect(browser.more == anonymous)
    }

    @Test("a header from an untrusted peer is ignored (and logged once); bad values count as absent")
    func spoofing() throws {
        let logPath = FileManager.default.temporaryDirectory.appendingPathComponent("identity-\(getpid()).log").path
        let descriptor = open(logPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        defer {
            close(descriptor)
            unlink(logPath)
        }
        let log = LogSink(descriptor: descriptor)
        var configuration = TestFixtures.configuration()
        configuration.identityHeader = "X-Forwarded-User"
        let app = try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), log: log)
        let alice = Browser(app, user: "alice")
        #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let aliceMore = alice.more

        let spoofer = Browser(app, user: "alice")
        spoofer.client.remoteAddress = "203.0.113.9"
        #expect(spoofer.more == ["podcasts", "audiobooks", "purchased"], "not alice's arrangement")
        #expect(try spoofer.customize([("action", "more"), ("tab", "music")]).status == 303)
        #expect(alice.more == aliceMore, "alice's record is untouched")
        log.flush()
        let text = try String(contentsOfFile: logPath, encoding: .utf8)
        #expect(text.components(separatedBy: "X-Forwarded-User").count - 1 == 1, "logged once: \(text)")

        for bad in ["", String(repeating: "a", count: 257), "ali\u{1}ce"] {
            let browser = Browser(app, user: bad)
            #expect(browser.more == ["podcasts", "audiobooks", "purchased"], "\(bad.prefix(5).debugDescription)")
        }
        // 256 bytes is still a name.
        let long = Browser(app, user: String(repeating: "a", count: 256))
        #expect(try long.customize([("action", "bar"), ("tab", "purchased")]).status == 303)
        #expect(Browser(app, user: String(repeating: "a", count: 256)).more.contains("purchased") == false)
    }

    @Test("with the feature off the header means nothing")
    func off() throws {
        let app = try makeApp()
        let alice = Browser(app, user: "alice")
        #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        #expect(Browser(app, user: "alice").more == ["podcasts", "audiobooks", "purchased"])
    }

    @Test("a cookie naming a user's record is refused: it starts a fresh session")
    func recordIsNoSession() throws {
        let app = try makeIdentityApp()
        let alice = Browser(app, user: "alice")
        #expect(try alice.customize([("action", "bar"), ("tab", "audiobooks")]).status == 303)
        let forger = Browser(app, user: nil)
        forger.client.cookies["tabserver_session"] = SessionID.user("alice").text
        #expect(forger.more == ["podcasts", "audiobooks", "purchased"])
        #expect(forger.client.cookies["tabserver_session"] == SessionID.user("alice").text, "no cookie for nothing")
    }

    @Test("hooks and the content provider see the user")
    func hooksSeeUser() throws {
        let seen = Mutex<[String]>([])
        var hooks = demoHooks()
        hooks.didSelect = { tab, _ in seen.withLock { $0.append("didSelect \(tab.id) \(AppHooks.user ?? "-")") } }
        let base = hooks.shouldSelect
        hooks.shouldSelect = { tab, state, confirmed in
            seen.withLock { $0.append("shouldSelect \(AppHooks.user ?? "-")") }
            return base(tab, state, confirmed)
        }
        let provider = UserRecordingCatalog()
        var configuration = TestFixtures.configuration()
        configuration.identityHeader = "X-Forwarded-User"
        let app = try buildApplication(configuration, content: provider, hooks: hooks, log: quietLog)
        let alice = Browser(app, user: "alice")
        #expect(try alice.select("tv").status == 303)
        #expect(alice.get("/tabs/tv").status == 200)
        alice.user = nil
        #expect(try alice.select("music").status == 303)
        #expect(alice.get("/tabs/music").status == 200)
        #expect(seen.withLock { $0 } == ["shouldSelect alice", "didSelect tv alice", "shouldSelect -", "didSelect music -"])
        #expect(provider.users == ["alice", nil])
        #expect(AppHooks.user == nil)
    }
}

/// The demo catalogue, noting which user each page was asked for.
private final class UserRecordingCatalog: TabContentProvider {
    private let base = DemoCatalog()
    private let seen = Mutex<[String?]>([])
    var users: [String?] { seen.withLock { $0 } }

    func page(for request: TabPageRequest) -> TabPage? {
        seen.withLock { $0.append(request.user) }
        return base.page(for: request)
    }
}
