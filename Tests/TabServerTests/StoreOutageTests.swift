// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand
@testable import TabServerSQLiteSessions
@testable import TabServerSessions

#if canImport(Glibc)
    import Glibc
#endif

/// Store failures answer 503 and make `/readyz` 503 until the store works
/// again, with one log line per change of state, not one per request.
@Suite("Session store outages through the app", .serialized)
struct StoreOutageTests {
    /// A `LogSink` on a fresh temporary file, and a way to read what reached it.
    struct LogFile {
        let path: String
        let sink: LogSink

        init() {
            path = TestFixtures.temporaryDirectory("outage-log") + "/server.log"
            sink = LogSink(descriptor: open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600))
        }

        /// The lines about the session store.
        var storeLines: [String] {
            sink.flush()
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init).filter { $0.contains("session store") }
        }
    }

    @Test("SQLite read-only: changes answer 503, /readyz 503, one log line; writable again: ready by itself")
    func sqliteReadOnly() async throws {
        let log = LogFile()
        var configuration = sevenTabConfiguration()
        configuration.sessions = .sqlite(path: TestFixtures.temporaryDirectory("outage") + "/sessions.sqlite")
        let app = try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: log.sink)
        let store = try #require(app.store as? SQLiteSessionStore)
        let client = TestClient(app.responder)
        let token = try await #require(client.get("/tabs/music").csrfToken)
        await #expect(client.get("/readyz").status == 200)

        store.setQueryOnly(true)
        for tab in ["tv", "movies", "podcasts", "tv", "movies"] {
            await #expect(client.post("/select", form: [("csrf", token), ("tab", tab)]).status == 503)
        }
        await #expect(client.get("/readyz").status == 503)
        await #expect(client.get("/readyz").status == 503, "not ready until a write succeeds")
        await #expect(client.get("/healthz").status == 200)
        await #expect(client.get("/tabs/music").status == 200, "an unchanged page needs no write")
        #expect(log.storeLines.count == 1, "\(log.storeLines)")
        #expect(log.storeLines.first?.contains("failing") == true)

        store.setQueryOnly(false)
        // Ready again when the store's background probe writes (every probe interval); 10 s
        // of room for a machine busy with other suites.
        #expect(await waitUntil(.seconds(10), every: .milliseconds(20)) { await client.get("/readyz").status == 200 })
        await #expect(client.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
        #expect(log.storeLines.count == 2, "\(log.storeLines)")
        #expect(log.storeLines.last?.contains("works again") == true)
    }

    @Test("Redis stopped: every request 503 at once, failing fast, one log line; restarted: ready again by itself")
    func redisStopped() async throws {
        // Timed: on a thread of its own, not the pool the suites beside it share.
        try await onOwnThread { try await Self().redisOutage(hang: false) }
    }

    @Test(
        "Redis hung (SIGSTOP): after the first timeout, every request 503 at once, failing fast; resumed: ready again")
    func redisHung() async throws {
        try await onOwnThread { try await Self().redisOutage(hang: true) }
    }

    private func redisOutage(hang: Bool) async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let log = LogFile()
        var configuration = sevenTabConfiguration()
        configuration.sessions = try SessionStoreConfiguration(redis.url)
        configuration.csrfSecret = String(repeating: "x", count: 32)
        let app = try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: log.sink)
        let client = TestClient(app.responder)
        await #expect(client.get("/tabs/music").status == 200)
        await #expect(client.get("/readyz").status == 200)

        let pid = try #require(redis.processIdentifier)
        if hang { kill(pid, SIGSTOP) } else { redis.stop() }
        // The first request finds out (refused at once, or after the 500 ms timeout).
        await #expect(client.get("/tabs/music").status == 503)
        // From then on every store call fails at once, quoting the failure, without trying
        // Redis, until the background probe reaches it: what keeps each request quick.
        func failingFast() -> Bool {
            do {
                _ = try app.engineStore.load(SessionID.generate(), now: wallClockSeconds())
                return false
            } catch {
                return error.reason.contains("failing fast")
            }
        }
        #expect(failingFast(), "the store fails fast once a request found Redis down")
        var took: [Duration] = []
        for index in 0..<60 {
            let started = ContinuousClock.now
            let status =
                await index.isMultiple(of: 3) ? client.get("/readyz").status : client.get("/tabs/music").status
            took.append(ContinuousClock.now - started)
            #expect(status == 503)
            usleep(20_000)
        }
        #expect(failingFast(), "and still does after them")
        took.sort()
        print("Redis \(hang ? "hung" : "down"): 95th percentile \(took[56]), slowest \(took[59]) (60 requests)")
        await #expect(client.get("/healthz").status == 200)
        #expect(log.storeLines.count == 1, "\(log.storeLines)")
        #expect(log.storeLines.first?.contains("127.0.0.1:\(redis.port)") == true)

        if hang { kill(pid, SIGCONT) } else { try redis.start() }
        let back = ContinuousClock.now
        // Readiness comes back by itself: nothing but the background probe talks to Redis.
        #expect(waitUntil(.seconds(5), every: .milliseconds(20)) { app.engineStore.checkReady() })
        print("Redis \(hang ? "resumed" : "restarted"): ready again after \(ContinuousClock.now - back)")
        await #expect(client.get("/readyz").status == 200)
        await #expect(client.get("/tabs/music").status == 200)
        #expect(log.storeLines.count == 2, "\(log.storeLines)")
        #expect(log.storeLines.last?.contains("works again") == true)
    }
}
