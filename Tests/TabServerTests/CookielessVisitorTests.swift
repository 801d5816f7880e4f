// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTesting
import Testing

@testable import TabServerCommand

/// A visitor costs a stored row (and gets a cookie) only once there is
/// something to remember; until then their forms carry a signed token.
@Suite("Cookieless visitors store nothing until there is something to remember")
struct CookielessVisitorTests {
    /// An app on a fresh SQLite file, and the store to count its rows.
    func sqliteApp(_ configure: (inout AppConfiguration) -> Void = { _ in }) throws -> (
        Application, SQLiteSessionStore
    ) {
        let path = TestFixtures.temporaryDirectory("cookieless") + "/sessions.sqlite"
        let app = try makeApp {
            $0.sessions = .sqlite(path: path)
            configure(&$0)
        }
        return (app, try #require(app.store as? SQLiteSessionStore))
    }

    @Test("GETs of the default state, static files and health checks write no row and set no cookie")
    func defaultStateIsFree() async throws {
        let (app, store) = try sqliteApp()
        let client = TestClient(app.responder)
        let css = try await #require(
            client.get("/tabs/featured").attribute(named: "href", inTagContaining: "stylesheet"))
        for _ in 0..<50 {
            for target in ["/", "/tabs/featured", "/more", "/healthz", "/readyz", css, "/tabs/nope"] {
                let response = await client.get(target)
                #expect([200, 303, 404].contains(response.status), "\(target): \(response.status)")
                #expect(response.headers["set-cookie"] == nil, "\(target) set a cookie")
            }
            await #expect(client.send(.head, "/tabs/featured").headers["set-cookie"] == nil)
        }
        #expect(client.cookies.isEmpty)
        #expect(try store.count() == 0)
        // An unknown cookie (a forged or long-expired id) stores nothing either.
        client.cookies["tabserver_session"] = SessionID.generate().text
        await #expect(client.get("/tabs/featured").headers["set-cookie"] == nil)
        #expect(try store.count() == 0)
    }

    @Test("the first tap of a cookieless page works; it stores one session with a token of its own")
    func firstTap() async throws {
        let (app, store) = try sqliteApp()
        let client = TestClient(app.responder)
        let page = await client.get("/tabs/featured")
        let signed = try #require(page.csrfToken)
        await #expect(
            client.get("/more").csrfToken == signed, "every cookieless page of the hour carries the same token")
        let tapped = await client.post("/select", form: [("csrf", signed), ("tab", "tv")])
        #expect(tapped.status == 303)
        #expect(tapped.location == "/tabs/tv")
        let cookie = try #require(tapped.headers["set-cookie"])
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax"))
        #expect(try store.count() == 1)
        let next = await client.follow(tapped)
        #expect(next.currentTabID == "tv")
        let own = try #require(next.csrfToken)
        #expect(own != signed, "a stored session's forms carry its own random token")
        // The signed token is not the stored session's: it is refused for it.
        await #expect(client.post("/select", form: [("csrf", signed), ("tab", "music")]).status == 403)
        await #expect(client.post("/select", form: [("csrf", own), ("tab", "music")]).status == 303)
        #expect(try store.count() == 1)
    }

    @Test("visiting another tab, choosing a language or opening the editor is something to remember")
    func somethingToRemember() async throws {
        let (app, store) = try sqliteApp()
        let music = TestClient(app.responder)
        let page = await music.get("/tabs/music")
        #expect(page.headers["set-cookie"] != nil)
        // The page that created the session already carries the session's own token.
        let token = try #require(page.csrfToken)
        await #expect(music.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
        let editor = TestClient(app.responder)
        await #expect(editor.get("/more/edit").headers["set-cookie"] != nil)
        let language = TestClient(app.responder)
        let signed = try await #require(language.get("/more").csrfToken)
        #expect(language.cookies.isEmpty)
        await #expect(
            language.post("/language", form: [("csrf", signed), ("lang", "de")]).headers["set-cookie"] != nil)
        await #expect(language.get("/tabs/featured").language == "de")
        #expect(try store.count() == 3)
    }

    @Test("a cookieless form token is refused when forged, expired or from another site")
    func refusals() async throws {
        let clock = ManualClock(1_000_000_000)
        var configuration = sevenTabConfiguration()
        configuration.sessions = .memory()
        configuration.sessionIdleTimeout = .seconds(7_200)
        let app = try buildApplication(configuration, content: DemoCatalog(), log: quietLog, clock: { clock.now })
        let client = TestClient(app.responder)
        let signed = try await #require(client.get("/tabs/featured").csrfToken)
        var forged = Array(signed)
        forged[21] = forged[21] == "A" ? "B" : "A"
        for (token, headers) in [
            (String(forged), [(String, String)]()), (SessionID.generate().text, []),
            (signed, [("Sec-Fetch-Site", "cross-site")]),
        ] {
            let response = await client.post("/select", form: [("csrf", token), ("tab", "tv")], headers: headers)
            #expect(response.status == 403)
            #expect(response.headers["set-cookie"] == nil, "a refused post stores nothing")
        }
        clock.advance(3 * 3_600)
        await #expect(client.post("/select", form: [("csrf", signed), ("tab", "tv")]).status == 403, "older than idle")
        let fresh = try await #require(client.get("/tabs/featured").csrfToken)
        #expect(fresh != signed)
        await #expect(client.post("/select", form: [("csrf", fresh), ("tab", "tv")]).status == 303)
    }

    @Test("instances with the same --csrf-secret accept each other's cookieless forms; a random key does not")
    func sharedSecret() async throws {
        let secret = String(repeating: "s3cr3t-", count: 6)
        let a = try makeApp { $0.csrfSecret = secret }
        let b = try makeApp { $0.csrfSecret = secret }
        let stranger = try makeApp()
        let token = try await #require(TestClient(a.responder).get("/tabs/featured").csrfToken)
        await #expect(TestClient(b.responder).post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
        await #expect(
            TestClient(stranger.responder).post("/select", form: [("csrf", token), ("tab", "tv")]).status == 403)
    }

    @Test("--csrf-secret must be long enough")
    func secretLength() throws {
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--csrf-secret", "short"], environment: [:])
        }
        guard
            case .run(let parsed) = try AppConfiguration.parse(
                arguments: [], environment: ["TABSERVER_CSRF_SECRET": String(repeating: "x", count: 32)])
        else {
            Issue.record("no configuration")
            return
        }
        #expect(parsed.csrfSecret?.count == 32)
    }
}
