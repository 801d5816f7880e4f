// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@Suite("Several instances sharing Redis", .serialized)
struct ScaleOutTests {
    @Test("two instances on one Redis see each other's changes on the next request")
    func sharedState() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let a = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let b = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let onA = TestClient(a.responder)
        let token = try await #require(onA.get("/tabs/featured").csrfToken)
        await #expect(onA.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
        await #expect(onA.get("/tabs/tv/shows/3").status == 200)
        let onB = TestClient(b.responder)
        onB.cookies = onA.cookies
        await #expect(onB.get("/").location == "/tabs/tv/shows/3")
        let editor = await onB.get("/more/edit")
        let moved = await onB.post(
            "/more/edit",
            form: [
                ("csrf", try #require(editor.csrfToken)), ("version", editor.customizeVersion!), ("action", "bar"),
                ("tab", "purchased"),
            ])
        #expect(moved.status == 303)
        await #expect(onA.get("/tabs/featured").barTabIDs.prefix(4).contains("purchased"))
        await #expect(a.responder.response(for: .init(method: .get, path: "/readyz")).status == .ok)
    }

    @Test("a page resting on a cached copy that another instance changed is answered from the fresh one")
    func staleCopyConfirmedInPipeline() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let a = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let b = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let onA = TestClient(a.responder)
        let token = try await #require(onA.get("/tabs/featured").csrfToken)
        await #expect(onA.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
        // Nothing changes on these: each is confirmed by a pipelined revision check.
        for _ in 0..<3 {
            let page = await onA.get("/tabs/tv")
            #expect(page.status == 200)
            #expect(!page.barTabIDs.prefix(4).contains("purchased"))
        }
        let onB = TestClient(b.responder)
        onB.cookies = onA.cookies
        let editor = await onB.get("/more/edit")
        let moved = await onB.post(
            "/more/edit",
            form: [
                ("csrf", try #require(editor.csrfToken)), ("version", editor.customizeVersion!), ("action", "bar"),
                ("tab", "purchased"),
            ])
        #expect(moved.status == 303)
        // A's copy is stale now: the check finds it out, and the page is made again.
        let fresh = await onA.get("/tabs/tv")
        #expect(fresh.status == 200)
        #expect(fresh.barTabIDs.prefix(4).contains("purchased"))
        // Many at once share round trips and all see the same state.
        let answers = Mutex<[Bool]>([])
        let cookie = onA.cookies.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
        await onThreads(32) { _ in
            let page = await a.responder.response(
                for: HTTPRequest(method: .get, path: "/tabs/tv", headers: HTTPHeaders([("Cookie", cookie)])))
            let ok = page.status == .ok && String(decoding: page.body.bytes, as: UTF8.self).contains("purchased")
            answers.withLock { $0.append(ok) }
        }
        #expect(answers.withLock { $0.count == 32 && $0.allSatisfy { $0 } })
    }

    @Test("Redis down: pages 503 and /readyz 503, /healthz 200; back by itself")
    func redisOutage() async throws {
        // Timed: on a thread of its own, not the pool the suites beside it share.
        try await onOwnThread { try await Self().timedRedisOutage() }
    }

    private func timedRedisOutage() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let app = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let client = TestClient(app.responder)
        await #expect(client.get("/tabs/music").status == 200)
        redis.stop()
        let started = Date()
        let page = await client.get("/tabs/music")
        #expect(page.status == 503)
        #expect(page.body.contains("try again"))
        await #expect(client.get("/readyz").status == 503)
        print("Redis down: a page and /readyz answered 503 in \(Date().timeIntervalSince(started)) s")
        await #expect(client.get("/healthz").status == 200)
        try redis.start()
        var recovered = false
        let deadline = Date().addingTimeInterval(10)
        while !recovered && Date() < deadline {
            let ready = await client.get("/readyz").status == 200
            let page = await client.get("/tabs/music").status == 200
            recovered = ready && page
            if !recovered { usleep(100_000) }
        }
        #expect(recovered)
    }

    @Test("nginx round-robin over 2 instances: 20 visitors × 10 requests stay consistent, even when one instance dies")
    func roundRobin() async throws {
        try #require(NginxServer.isInstalled)
        let redis = try RedisServer()
        defer { redis.stop() }
        let first = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let second = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let serverA = try first.start()
        let serverB = try second.start()
        defer {
            serverA.shutdown()
            serverB.shutdown()
        }
        let nginx = try NginxServer(
            upstreams: """
                upstream tabservers {
                  server 127.0.0.1:\(serverA.port) max_fails=1 fail_timeout=30s;
                  server 127.0.0.1:\(serverB.port) max_fails=1 fail_timeout=30s;
                }
                """,
            locations: """
                location / {
                  proxy_pass http://tabservers;
                  proxy_set_header Host $host;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                  proxy_next_upstream error timeout;
                }
                """)
        defer { nginx.stop() }

        let failures = Mutex<[String]>([])
        let steps = Atomic<Int>(0)
        let killer = ServerBox(serverA)
        let port = nginx.port
        await onThreads(20) { visitor in
            func fail(_ message: String) { failures.withLock { $0.append("visitor \(visitor): \(message)") } }
            var cookie = ""
            // A person whose tap fails while an instance goes down taps again: one retry
            // after a 502 or no answer. State must still be right afterwards.
            func request(_ method: String, _ path: String, form: String? = nil) -> TestResponse? {
                if let response = attempt(method, path, form: form), response.status != 502 { return response }
                return attempt(method, path, form: form)
            }
            func attempt(_ method: String, _ path: String, form: String? = nil) -> TestResponse? {
                guard let connection = RawHTTPConnection(port: port, timeoutSeconds: 5) else { return nil }
                var text = "\(method) \(path) HTTP/1.1\r\nHost: t\r\nConnection: close\r\n"
                if !cookie.isEmpty { text += "Cookie: \(cookie)\r\n" }
                if let form {
                    text += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
                }
                connection.send(text + "\r\n" + (form ?? ""))
                let response = connection.readResponse()
                if steps.add(1, ordering: .relaxed).newValue == 100 { killer.server.shutdown() }
                return response
            }
            guard let home = request("GET", "/tabs/podcasts"), let token = home.csrfToken,
                let setCookie = home.headers["set-cookie"]
            else { return fail("no first page") }
            cookie = String(setCookie.split(separator: ";")[0])
            let tabs = ["movies", "tv", "music"]
            for round in 0..<3 {
                let tab = tabs[(visitor + round) % tabs.count]
                guard let selected = request("POST", "/select", form: "csrf=\(token)&tab=\(tab)") else {
                    return fail("select failed")
                }
                // A re-tap of the selected tab pops to its root; either way the tab is selected.
                guard selected.status == 303, selected.location?.hasPrefix("/tabs/\(tab)") == true else {
                    return fail("select answered \(selected.status) \(selected.location ?? "")")
                }
                let detail =
                    tab == "movies" ? "films/\(round + 1)" : tab == "tv" ? "shows/\(round + 1)" : "albums/\(round + 1)"
                guard request("GET", "/tabs/\(tab)/\(detail)")?.status == 200 else { return fail("detail failed") }
                guard let restored = request("GET", "/"), restored.location == "/tabs/\(tab)/\(detail)" else {
                    return fail("state not consistent after round \(round)")
                }
            }
        }
        let problems = failures.withLock { $0 }
        #expect(problems.isEmpty, "\(problems.prefix(5))")
        #expect(steps.load(ordering: .relaxed) >= 200)
        #expect(serverA.isDraining, "instance A was stopped part-way")
    }
}

/// Carries a server into concurrent closures (it is `Sendable`; this keeps the closure
/// from capturing the test's own context).
struct ServerBox: Sendable {
    let server: AppServer
    init(_ server: AppServer) { self.server = server }
}
