// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

@testable import TabServerCommand

/// Each client's budget of new sessions: past it, pages are served without a stored
/// session and a post that needs one gets 429 with `Retry-After`.
@Suite("The per-client budget of new sessions")
struct SessionBudgetTests {
    /// A budget of 3 at once and 1 a second (the rate is too slow to refill during a test).
    static func app(log: LogSink = quietLog, _ configure: (inout AppConfiguration) -> Void = { _ in }) throws
        -> Application
    {
        var configuration = sevenTabConfiguration()
        configuration.newSessionRate = 1
        configuration.newSessionBurst = 3
        configuration.metrics = true
        configure(&configuration)
        return try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), log: log)
    }

    /// A cookieless visit to a tab that is not the default (it would store a session),
    /// from `address`, through `forwardedFor` when given.
    static func visit(_ app: Application, from address: String, forwardedFor: String? = nil) async -> TestResponse {
        let client = TestClient(app.responder)
        client.remoteAddress = address
        return await client.get("/tabs/music", headers: forwardedFor.map { [("X-Forwarded-For", $0)] } ?? [])
    }

    static func stored(_ response: TestResponse) -> Bool { response.headers["set-cookie"] != nil }

    @Test("past the burst a page is still served, with no cookie and the shared signed token; a post gets 429")
    func pastTheBurst() async throws {
        let app = try Self.app()
        for _ in 0..<3 { #expect(await Self.stored(Self.visit(app, from: "203.0.113.9"))) }
        let served = await Self.visit(app, from: "203.0.113.9")
        #expect(served.status == 200)
        #expect(!Self.stored(served))
        #expect(served.currentTabID == "music", "the page shows the visit")
        let token = try #require(served.csrfToken)
        let client = TestClient(app.responder)
        client.remoteAddress = "203.0.113.9"
        let post = await client.post("/select", form: [("csrf", token), ("tab", "movies")])
        #expect(post.status == 429)
        #expect(post.headers["retry-after"] == "1")
        #expect(post.body.contains("Too many new visitors"))
        #expect(!Self.stored(post))
        // A visitor who already has a session is not affected (while others from the same
        // address are refused: 3 of these 5).
        let returning = TestClient(app.responder)
        returning.remoteAddress = "203.0.113.10"
        #expect(await Self.stored(returning.get("/tabs/music")))
        for _ in 0..<5 { _ = await Self.visit(app, from: "203.0.113.10") }
        let page = await returning.get("/tabs/movies")
        #expect(page.status == 200)
        #expect(page.currentTabID == "movies")
        let metrics = await TestClient(app.responder).get("/metrics").body
        #expect(metrics.contains("tabserver_sessions_refused_total 5\n"), "\(metrics)")
    }

    @Test("a page that stores nothing costs no budget: the default tab without a cookie")
    func defaultPageIsFree() async throws {
        let app = try Self.app()
        for _ in 0..<10 {
            let client = TestClient(app.responder)
            client.remoteAddress = "203.0.113.20"
            let page = await client.get("/tabs/featured")
            #expect(page.status == 200)
            #expect(!Self.stored(page))
        }
        #expect(await Self.stored(Self.visit(app, from: "203.0.113.20")))
    }

    @Test("on SQLite too: a client past its burst stores no more sessions")
    func sqliteBurst() async throws {
        let path = TestFixtures.temporaryDirectory("budget") + "/sessions.sqlite"
        let app = try Self.app { $0.sessions = .sqlite(path: path) }
        var stored = 0
        let started = ContinuousClock.now
        for _ in 0..<20 where Self.stored(await Self.visit(app, from: "203.0.113.77")) { stored += 1 }
        // The burst of 3, and one more for each second the visits took (the rate refills it).
        let refilled = Int((ContinuousClock.now - started) / .seconds(1))
        #expect(stored >= 3 && stored <= 3 + refilled, "stored \(stored) in \(refilled) s")
        #expect(app.engineStore.admission.created == stored)
    }

    @Test("IPv6 addresses of one /64 share a budget; another /64 has its own")
    func ipv6Prefix() async throws {
        let app = try Self.app()
        #expect(await Self.stored(Self.visit(app, from: "2001:db8:5:1::1")))
        #expect(await Self.stored(Self.visit(app, from: "2001:db8:5:1::2")))
        #expect(await Self.stored(Self.visit(app, from: "2001:db8:5:1:aaaa::3")))
        #expect(await !Self.stored(Self.visit(app, from: "2001:db8:5:1:ffff::4")), "the same /64")
        #expect(await Self.stored(Self.visit(app, from: "2001:db8:5:2::1")), "another /64")
    }

    @Test("behind a trusted proxy each forwarded client has its own budget")
    func trustedProxy() async throws {
        let app = try Self.app()
        for _ in 0..<3 { #expect(await Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "198.51.100.7"))) }
        #expect(await !Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "198.51.100.7")))
        #expect(await Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "198.51.100.8")))
    }

    @Test(
        "X-Forwarded-For written as ip:port or [v6]:port keys the client without its port; a /64 is one client",
        arguments: [
            ["198.51.100.7:40001", "198.51.100.7:40002", "198.51.100.7:40003", "198.51.100.7:40004"],
            ["[2001:db8:7::1]", "[2001:db8:7::2]:443", "[2001:db8:7:0:aaaa::3]:8080", "2001:db8:7::4"],
        ])
    func forwardedWithPorts(entries: [String]) async throws {
        let app = try Self.app()
        for entry in entries.prefix(3) {
            #expect(await Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: entry)), "\(entry)")
        }
        #expect(await !Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: entries[3])), "one client")
    }

    @Test("an X-Forwarded-For entry that is no address counts against the proxy that sent it")
    func forwardedGarbage() async throws {
        let app = try Self.app()
        for index in 0..<3 {
            #expect(await Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "client-\(index).example")))
        }
        #expect(await !Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "unknown")))
        #expect(await !Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "_hidden, 127.0.0.1")))
        #expect(await Self.stored(Self.visit(app, from: "127.0.0.1", forwardedFor: "198.51.100.60")))
    }

    @Test("behind a proxy that is not trusted every visitor is the proxy: they share one budget")
    func untrustedProxy() async throws {
        let app = try Self.app()
        for index in 0..<3 {
            #expect(await Self.stored(Self.visit(app, from: "192.0.2.1", forwardedFor: "198.51.100.\(index)")))
        }
        #expect(await !Self.stored(Self.visit(app, from: "192.0.2.1", forwardedFor: "198.51.100.99")))
    }

    @Test("rate 0 sets no budget")
    func off() async throws {
        let app = try Self.app { $0.newSessionRate = 0 }
        for _ in 0..<20 { #expect(await Self.stored(Self.visit(app, from: "203.0.113.30"))) }
    }

    @Test("one log line per episode, naming the client")
    func oneLogLine() async throws {
        let path = TestFixtures.temporaryDirectory("budget-log") + "/server.log"
        let sink = LogSink(descriptor: open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        let app = try Self.app(log: sink)
        for _ in 0..<50 { _ = await Self.visit(app, from: "203.0.113.40") }
        sink.flush()
        let lines = (try String(contentsOfFile: path, encoding: .utf8)).split(separator: "\n")
            .filter { $0.contains("new sessions refused") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("203.0.113.40") == true)
    }

    @Test("--new-session-rate and --new-session-burst parse; bad values name the flag")
    func flags() throws {
        guard
            case .run(let parsed) = try AppConfiguration.parse(
                arguments: ["--new-session-rate", "5", "--new-session-burst=50"], environment: [:])
        else {
            Issue.record("expected a configuration")
            return
        }
        #expect(parsed.newSessionRate == 5)
        #expect(parsed.newSessionBurst == 50)
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--new-session-burst", "0"], environment: [:])
        }
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--new-session-rate", "-1"], environment: [:])
        }
    }
}
