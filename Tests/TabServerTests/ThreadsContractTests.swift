// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisConfiguration
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

    @Test("a didSelect hook held until the end delays neither its own answer nor other visitors' selects (SQLite)")
    func slowHookHoldsNoCommit() async throws {
        let calls = Calls()
        // The slow hook is held until every other tap is answered: an answer that waited
        // for it could only come after the hold gave up, which `gaveUp` tells. Ten minutes,
        // so that a machine that stalls the whole process for a while (a loaded CI host)
        // cannot make an answer look as if it had waited.
        let hold = DispatchSemaphore(value: 0)
        let gaveUp = Atomic<Bool>(false)
        defer { hold.signal() }
        var hooks = demoHooks()
        hooks.didSelect = { tab, _ in
            if tab.id == "music", hold.wait(timeout: .now() + 600) == .timedOut {
                gaveUp.store(true, ordering: .relaxed)
            }
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
        let slowWaited = gaveUp.load(ordering: .relaxed)
        #expect(!slowWaited, "the slow tap's answer waited for its hook")

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
        // All answered while the slow hook was still held: none waited for it.
        let othersWaited = gaveUp.load(ordering: .relaxed)
        #expect(!othersWaited, "the other visitors' selects waited for the slow hook")
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print(
            "threads contract: selects while a hook is held: p99 \(p99), the slow tap \(slowAnswer), "
                + "the others done \(othersDone) after it")

        // Every committed tap reached its observer, the slow one too, once it is let go.
        hold.signal()
        #expect(app.responder.finishHooks(within: .seconds(30)))
        #expect(calls.all["slow"] == ["music"])
        #expect(calls.total == 101, "\(calls.total) hook calls")
    }

    @Test(
        "Redis hung (SIGSTOP) under signed-in users and new visitors: no loop is held: health checks answer meanwhile")
    func hungRedisHoldsNoLoop() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        var configuration = sevenTabConfiguration()
        configuration.http.threads = 2
        configuration.identityHeader = "X-Forwarded-User"
        // The calls stay hung for the whole test (no timeout gives up on them before it
        // resumes Redis, even on a host that stalls the process for a minute), so every
        // health check is answered while they wait.
        var hung = try RedisConfiguration(url: redis.url)
        hung.commandTimeout = .seconds(600)
        configuration.sessions = .redis(hung)
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
        // visitor's tap inserts a session: each now waits for Redis somewhere. Not on an
        // engine loop. All are sent before the first health check.
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
        // Every health check was answered while every user's call was hung: a loop holding
        // one would have answered its other connections only once Redis came back.
        let sorted = took.withLock { $0 }.sorted()
        #expect(sorted.count == 200 && sorted.allSatisfy { $0 < .seconds(99) }, "every health check answered 200")
        print(
            "threads contract: health checks while Redis hung: p99 \(sorted[sorted.count * 99 / 100]), "
                + "first \(first.withLock { $0 }.max() ?? .zero)")
        // Resumed, the waiting requests are answered: they were still waiting, not timed out.
        kill(pid, SIGCONT)
        let statuses = waiting.map { $0.readResponse()?.status ?? 0 }
        #expect(statuses.allSatisfy { $0 == 200 || $0 == 303 }, "\(statuses)")
    }
}
