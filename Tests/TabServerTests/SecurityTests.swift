// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("CSRF, cookies and bad input (in-process)")
struct SecurityTests {
    @Test("a post without a valid token, or from another site, is a 403 and changes nothing")
    func csrf() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        let other = TestClient(app.responder)
        // Visiting Music is something to remember: both get a stored session and a token of its own.
        let token = try await #require(client.get("/tabs/music").csrfToken)
        let otherToken = try await #require(other.get("/tabs/music").csrfToken)
        #expect(otherToken != token)
        #expect(client.cookies["tabserver_session"] != nil)
        let attempts: [([(String, String)], [(String, String)])] = [
            ([("tab", "movies")], []),
            ([("csrf", "not-a-token"), ("tab", "movies")], []),
            ([("csrf", otherToken), ("tab", "movies")], []),
            ([("csrf", String(token.dropLast())), ("tab", "movies")], []),
            ([("csrf", token), ("tab", "movies")], [("Sec-Fetch-Site", "cross-site")]),
        ]
        for (form, headers) in attempts {
            let response = await client.post("/select", form: form, headers: headers)
            #expect(response.status == 403)
            #expect(response.mainText.contains("not accepted"))
            #expect(try response.document.first("main a[href=\"/\"]") != nil, "the 403 page offers a way back")
        }
        await #expect(client.get("/").location == "/tabs/music")
        // Same-origin posts with the token still work.
        await #expect(
            client.post(
                "/select", form: [("csrf", token), ("tab", "movies")], headers: [("Sec-Fetch-Site", "same-origin")]
            ).status == 303)
    }

    @Test(
        "an unknown, forged or malformed session cookie gets a fresh session, never an error",
        arguments: [
            "AAAAAAAAAAAAAAAAAAAAAA", "short", String(repeating: "A", count: 200), "ÄÖÜäöüßÄÖÜäöüßÄÖÜäöüß12",
            "AAAAAAAAAAAAAAAAAAAAAA==", "%00%00", "",
        ])
    func invalidCookie(value: String) async throws {
        let client = TestClient(try makeApp().responder)
        client.cookies["tabserver_session"] = value
        let response = await client.get("/tabs/music")
        #expect(response.status == 200)
        let cookie = try #require(response.headers["set-cookie"])
        let issued = cookie.split(separator: ";")[0].dropFirst("tabserver_session=".count)
        #expect(issued != value)
        #expect(issued.count == 22)
    }

    @Test("an expired session is replaced, not revived")
    func expired() async throws {
        let clock = ManualClock(1_000_000)
        var configuration = sevenTabConfiguration()
        configuration.sessionIdleTimeout = .seconds(60)
        let app = try buildApplication(configuration, content: DemoCatalog(), log: quietLog, clock: { clock.now })
        let client = TestClient(app.responder)
        _ = await client.get("/tabs/movies")
        let first = try #require(client.cookies["tabserver_session"])
        clock.advance(30)
        await #expect(client.get("/").location == "/tabs/movies")
        clock.advance(61)
        await #expect(client.get("/").location == "/tabs/featured")
        _ = await client.get("/tabs/movies")
        #expect(client.cookies["tabserver_session"] != first)
    }

    @Test("a form without fields, or naming an unknown tab, is a 400 naming the field")
    func malformedSelect() async throws {
        let client = TestClient(try makeApp().responder)
        let token = try await #require(client.get("/tabs/featured").csrfToken)
        let missing = await client.post("/select", form: [("csrf", token)])
        #expect(missing.status == 400)
        #expect(try missing.document.select("main code").map(\.text).contains("tab"))
        let unknown = await client.post("/select", form: [("csrf", token), ("tab", "<script>")])
        #expect(unknown.status == 400)
        #expect(unknown.body.contains("&lt;script&gt;"))
        #expect(!unknown.body.contains("<script>\""))
    }

    @Test("pages carry protective headers; only the browser keeps them, and revalidates them")
    func headers() async throws {
        let client = TestClient(try makeApp().responder)
        let page = await client.get("/tabs/featured")
        // `private`: no shared cache keeps one visitor's page; `no-cache`: the browser asks
        // again before using its copy (and may keep the page for Back).
        #expect(page.headers["cache-control"] == "private, no-cache")
        #expect(page.headers["x-content-type-options"] == "nosniff")
        #expect(page.headers["x-frame-options"] == "DENY")
        #expect(page.headers["content-security-policy"]?.contains("default-src 'self'") == true)
        #expect(page.headers["content-security-policy"]?.contains("frame-ancestors 'none'") == true)
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let seconds: Mutex<Int64>
    init(_ start: Int64) { seconds = Mutex(start) }
    var now: Int64 { seconds.withLock { $0 } }
    func advance(_ delta: Int64) { seconds.withLock { $0 += delta } }
}
