// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

#if canImport(Glibc)
    import Glibc
#endif

/// docs/threads.md, over a real socket: an engine thread never waits on slow work of
/// others. A hook that sleeps runs on a hook lane, not the SQLite writer; a store call
/// that hangs runs on a worker lane, not an engine loop.
@Suite("The threads contract: nothing slow holds an engine thread or the commit", .serialized)
struct ThreadsContractTests {
    /// Each hook call, by visitor (the slow one, the others), in order.
    final class Calls: Sendable {
        private let calls = Mutex<[String: [String]]>([:])
        func record(_ session: String, _ tab: String) { calls.withLock { $0[session, default: []].append(tab) } }
        var all: [String: [String]] { calls.withLock { $0 } }
        var total: Int { calls.withLock { $0.values.reduce(0) { $0 + $1.count } } }
    }

    @Test("a didSelect hook that sleeps 2 s delays neither its own answer nor other visitors' selects (SQLite)")
    func slowHookHoldsNoCommit() async throws {
        let calls = Calls()
        var hooks = demoHooks()
        hooks.didSelect = { tab, _ in
            if tab.id == "music" { usleep(2_000_000) }
            calls.record(tab.id == "music" ? "slow" : "other", tab.id)
        }
        var configuration = sevenTabConfiguration()
        configuration.http.threads = 2
        configuration.sessions = .sqlite(path: TestFixtures.temporaryDirectory("threads-hook") + "/sessions.sqlite")
        let app = try buildApplication(configuration, content: DemoCatalog(), hooks: hooks, log: quietLog)
        let server = try AppServer(app)
        defer { server.shutdown() }

        let slow = TestClient(port: server.port)
        let slowToken = try await #require(slow.get("/tabs/movies").csrfToken)
        let started = ContinuousClock.now
        await #expect(slow.post("/select", form: [("csrf", slowToken), ("tab", "music")]).status == 303)
        let slowAnswer = ContinuousClock.now - started
        #expect(slowAnswer < .milliseconds(500), "the slow hook's own answer took \(slowAnswer)")

        // Four visitors on both loops tap tabs while the hook sleeps: every tap is a write
        // that waits for its group commit.
        let latencies = Mutex<[Duration]>([])
        let answered = Atomic<Int>(0)
        // When the last of them finished, noted by the visitors themselves (the test's own
        // task may resume later: the suites run in parallel on few threads).
        let finished = Mutex<ContinuousClock.Instant?>(nil)
        await onThreads(4) { _ in
            defer { finished.withLock { $0 = max($0 ?? .now, .now) } }
            let client = TestClient(port: server.port)
            guard let token = await client.get("/tabs/movies").csrfToken else { return }
            for index in 0..<25 {
                let begin = ContinuousClock.now
                let status = await client.post(
                    "/select", form: [("csrf", token), ("tab", index.isMultiple(of: 2) ? "tv" : "movies")]
                ).status
                latencies.withLock { $0.append(ContinuousClock.now - begin) }
                if status == 303 { answered.add(1, ordering: .relaxed) }
            }
        }
        let othersDone = (finished.withLock { $0 } ?? .now) - started
        let sorted = latencies.withLock { $0 }.sorted()
        #expect(answered.load(ordering: .relaxed) == 100)
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        // The figure is 50 ms, met alone (printed below); the bound is twice that
        // because the suites run in parallel with this one. Without the lanes the tap
        // itself took 2 s and the others waited for it (the two checks above).
        #expect(p99 <= .milliseconds(100), "p99 of the other visitors' selects: \(p99)")
        print("threads contract: selects while a hook sleeps: p99 \(p99), the slow tap \(slowAnswer)")
        #expect(othersDone < .milliseconds(1_900), "the others finished \(othersDone) after the slow tap")

        // Every committed tap reached its observer, the slow one too.
        #expect(app.responder.finishHooks(within: .seconds(5)))
        #expect(calls.all["slow"] == ["music"])
        #expect(calls.total == 101, "\(calls.total) hook calls")
    }

    @Test("Redis hung (SIGSTOP) under signed-in users and new visitors: no loop is held: health checks answer at once")
    func hungRedisHoldsNoLoop() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        var configuration = sevenTabConfiguration()
        configuration.http.threads = 2
        configuration.identityHeader = "X-Forwarded-User"
        configuration.sessions = try SessionStoreConfiguration(redis.url)
        configuration.csrfSecret = String(repeating: "x", count: 32)
        let app = try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: quietLog)
        let server = try AppServer(app)
        defer { server.shutdown() }
        let users = (0..<4).map { _ in TestClient(port: server.port) }
        for (index, user) in users.enumerated() {
            await #expect(user.get("/tabs/music", headers: [("X-Forwarded-User", "user\(index)")]).status == 200)
        }
        // A new visitor's form token (signed: no session yet); their first tap stores one.
        let newcomer = TestClient(port: server.port)
        let token = try await #require(newcomer.get("/tabs/featured").csrfToken)
        #expect(newcomer.cookies.isEmpty)

        let pid = try #require(redis.processIdentifier)
        kill(pid, SIGSTOP)
        defer { kill(pid, SIGCONT) }
        // Signed-in users' requests read their records from Redis synchronously, and a new
        // visitor's tap inserts a session: each now waits for the client's timeout (500 ms)
        // somewhere. Not on an engine loop. All are sent before the first health check.
        var waiting: [RawHTTPConnection] = []
        for index in users.indices {
            let user = try #require(RawHTTPConnection(port: server.port))
            #expect(user.send("GET /tabs/movies HTTP/1.1\r\nHost: t\r\nX-Forwarded-User: user\(index)\r\n\r\n"))
            let form = "csrf=\(token)&tab=music"
            let visitor = try #require(RawHTTPConnection(port: server.port))
            #expect(
                visitor.send(
                    "POST /select HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                        + "Content-Length: \(form.utf8.count)\r\n\r\n\(form)"))
            waiting += [user, visitor]
        }
        usleep(20_000)
        // 200 health checks from four connections over both loops while the users wait:
        // the first of each connection is sent while every user's call is still hung.
        let first = Mutex<[Duration]>([])
        let took = Mutex<[Duration]>([])
        await onThreads(4) { _ in
            let client = TestClient(port: server.port)
            for index in 0..<50 {
                let begin = ContinuousClock.now
                let status = await client.get("/healthz").status
                let duration = status == 200 ? ContinuousClock.now - begin : .seconds(99)
                took.withLock { $0.append(duration) }
                if index == 0 { first.withLock { $0.append(duration) } }
                usleep(5_000)
            }
        }
        // None waited for the hung call's timeout (500 ms), which a loop holding a user's
        // call makes its other connections do.
        let firstWorst = first.withLock { $0 }.max() ?? .seconds(99)
        #expect(firstWorst < .milliseconds(100), "the first health checks took up to \(firstWorst)")
        let sorted = took.withLock { $0 }.sorted()
        #expect(sorted.count == 200)
        let p99 = sorted[sorted.count * 99 / 100]
        // 50 ms in the issue, met alone (printed below); twice that with the suites in parallel.
        #expect(p99 <= .milliseconds(100), "p99 of the health checks while Redis hung: \(p99)")
        print("threads contract: health checks while Redis hung: p99 \(p99), first \(firstWorst)")
        let statuses = waiting.map { $0.readResponse()?.status ?? 0 }
        #expect(statuses.allSatisfy { $0 == 503 }, "\(statuses)")
    }
}
