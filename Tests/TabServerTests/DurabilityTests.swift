// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerSQLite
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Sessions that last (SQLite)", .serialized)
struct DurabilityTests {
    @Test("a visitor's state survives a restart of the app")
    func restart() async throws {
        let path = TestFixtures.temporaryDirectory("durable") + "/sessions.sqlite"
        let cookie: String
        do {
            let app = try makeApp { $0.sessions = .sqlite(path: path) }
            let client = TestClient(app.responder)
            let page = await client.get("/tabs/featured")
            _ = await client.post("/select", form: [("csrf", page.csrfToken!), ("tab", "tv")])
            await #expect(client.get("/tabs/music/albums/2").status == 200)
            cookie = try #require(client.cookies["tabserver_session"])
        }
        let app = try makeApp { $0.sessions = .sqlite(path: path) }
        let client = TestClient(app.responder)
        client.cookies["tabserver_session"] = cookie
        await #expect(client.get("/").location == "/tabs/music/albums/2")
        let token = try await #require(client.get("/tabs/music").csrfToken)
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).location == "/tabs/tv")
        #expect(client.cookies["tabserver_session"] == cookie, "the same session, not a new one")
    }

    @Test("kill -9 during 500 concurrent posts: every post answered with 303 is there after restart")
    func killDuringPosts() async throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary), "build the package first")
        let folder = TestFixtures.temporaryDirectory("kill9")
        let store = "sqlite:\(folder)/sessions.sqlite"
        let (process, port) = try ProcessTests.launch([], sessions: store)
        defer { process.stop(SIGKILL) }

        // 500 visitors, each with a session and a token.
        struct Visitor: Sendable {
            let cookie: String
            let token: String
            let target: String
        }
        let targets = ["movies", "tv", "podcasts", "audiobooks", "music"]
        var visitors: [Visitor] = []
        let setup = try #require(RawHTTPConnection(port: port))
        for index in 0..<500 {
            // Visiting a tab other than the first is something to remember: a session and cookie.
            setup.send("GET /tabs/purchased HTTP/1.1\r\nHost: t\r\n\r\n")
            let page = try #require(setup.readResponse())
            let cookie = try #require(page.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
            visitors.append(Visitor(cookie: cookie, token: try #require(page.csrfToken), target: targets[index % 5]))
        }

        // Each visitor posts once, 16 at a time; the server is killed part-way.
        let acknowledged = Mutex<[Int]>([])
        let answered = Atomic<Int>(0)
        let all = visitors
        await onThreads(16) { worker in
            guard let connection = RawHTTPConnection(port: port, timeoutSeconds: 2) else { return }
            for index in stride(from: worker, to: all.count, by: 16) {
                let visitor = all[index]
                let form = "csrf=\(visitor.token)&tab=\(visitor.target)"
                guard
                    connection.send(
                        "POST /select HTTP/1.1\r\nHost: t\r\nCookie: \(visitor.cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
                    ), let response = connection.readResponse()
                else { return }
                if response.status == 303 && response.location == "/tabs/\(visitor.target)" {
                    acknowledged.withLock { $0.append(index) }
                }
                if answered.add(1, ordering: .relaxed).newValue == 250 { process.signal(SIGKILL) }
            }
        }
        #expect(process.waitForExit(.seconds(30)) == .signaled(SIGKILL))
        let acked = acknowledged.withLock { $0 }
        #expect(acked.count >= 200, "the kill came part-way, after at least 250 answers")
        #expect(acked.count < 500, "the kill came before the end")

        let (restarted, newPort) = try ProcessTests.launch([], sessions: store)
        defer { restarted.stop() }
        let check = try #require(RawHTTPConnection(port: newPort))
        var missing: [Int] = []
        for index in acked {
            check.send("GET / HTTP/1.1\r\nHost: t\r\nCookie: \(visitors[index].cookie)\r\n\r\n")
            let response = try #require(check.readResponse())
            if response.location != "/tabs/\(visitors[index].target)" { missing.append(index) }
        }
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(10))")
        restarted.stop()
        let db = try SQLiteDatabase(path: "\(folder)/sessions.sqlite")
        #expect(try db.query("PRAGMA integrity_check").first?.first == .text("ok"))
    }
}
