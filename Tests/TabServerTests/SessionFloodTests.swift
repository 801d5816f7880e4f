// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisConfiguration
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

/// A stranger floods the app with cookieless requests, each of which stores a new
/// session: returning visitors and signed-in users keep their state, whatever the store.
@Suite("A flood of new sessions wipes nobody's state")
struct SessionFloodTests {
    /// A visitor with a tab of their own selected, who comes back now and then.
    struct Visitor {
        let client: TestClient
        let tab: String
    }

    /// One cookieless GET of a tab that is not the default: it stores a new session.
    static func floodRequest(_ app: Application) async -> HTTPResponse {
        await app.responder.response(for: HTTPRequest(method: .get, path: "/tabs/music", remoteAddress: "203.0.113.66"))
    }

    /// The app's clock, moved by the flood: a second every 100 requests, so the flood runs
    /// for a minute or more of the app's time, as a real one would.
    final class FloodClock: Sendable {
        let seconds = Atomic<Int64>(1_000_000)
        func tick() { seconds.add(1, ordering: .relaxed) }
        var read: @Sendable () -> Int64 { { [self] in seconds.load(ordering: .relaxed) } }
    }

    /// 50 visitors, `flood` one-shot sessions, the visitors coming back every
    /// `returnEvery` of them; returns how many visitors lost their state.
    static func run(_ app: Application, clock: FloodClock, flood: Int, returnEvery: Int) async throws -> Int {
        let tabs = ["movies", "tv", "podcasts", "audiobooks", "purchased"]
        var visitors: [Visitor] = []
        for index in 0..<50 {
            let client = TestClient(app.responder)
            let tab = tabs[index % tabs.count]
            await #expect(client.get("/tabs/\(tab)").status == 200)
            #expect(client.cookies.count == 1)
            visitors.append(Visitor(client: client, tab: tab))
        }
        // A visitor whose session is gone gets a new cookie on their next visit (and the
        // default selection): counted once, at the first visit that shows it.
        var lost = Set<Int>()
        func comeBack() async {
            for (number, visitor) in visitors.enumerated() where !lost.contains(number) {
                let home = await visitor.client.get("/")
                if home.location != "/tabs/\(visitor.tab)" || home.headers["set-cookie"] != nil {
                    lost.insert(number)
                } else {
                    _ = await visitor.client.get("/tabs/\(visitor.tab)")
                }
            }
        }
        await comeBack()
        for index in 0..<flood {
            await #expect(floodRequest(app).status == .ok)
            if index % 100 == 99 { clock.tick() }
            if index % returnEvery == returnEvery - 1 { await comeBack() }
        }
        await comeBack()
        return lost.count
    }

    static func floodApp(_ sessions: SessionStoreConfiguration, clock: FloodClock) throws -> Application {
        var configuration = sevenTabConfiguration()
        configuration.sessions = sessions
        configuration.newSessionRate = 0
        configuration.metrics = true
        return try buildApplication(
            configuration, content: DemoCatalog(), hooks: demoHooks(), redis: .standard, log: quietLog,
            clock: clock.read)
    }

    @Test("memory store of 1,000: 0 of 50 visitors lose their state to 6,000 one-shot sessions")
    func memory() async throws {
        let clock = FloodClock()
        let app = try Self.floodApp(.memory(capacity: 1_000), clock: clock)
        await #expect(try Self.run(app, clock: clock, flood: 6_000, returnEvery: 1_500) == 0)
        #expect(app.engineStore.admission.evictedEstablished == 0)
        #expect(app.engineStore.admission.evictedProbationary >= 5_000)
    }

    @Test("SQLite store of 1,000: 0 of 50 visitors lose their state to 6,000 one-shot sessions")
    func sqlite() async throws {
        let path = TestFixtures.temporaryDirectory("flood") + "/sessions.sqlite"
        let clock = FloodClock()
        let app = try Self.floodApp(.sqlite(path: path, maxSessions: 1_000), clock: clock)
        await #expect(try Self.run(app, clock: clock, flood: 6_000, returnEvery: 1_500) == 0)
        #expect(app.engineStore.admission.evictedEstablished == 0)
        let metrics = await TestClient(app.responder).get("/metrics").body
        #expect(metrics.contains("tabserver_sessions_evicted_total{standing=\"established\"} 0\n"))
        #expect(metrics.contains("tabserver_sessions_promoted_total "))
        #expect(!metrics.contains("tabserver_sessions_created_total 0\n"))
    }

    @Test("Redis under maxmemory with volatile-ttl: 0 of 50 visitors lose their state to a flood Redis evicts")
    func redis() async throws {
        let redis = try RedisServer(arguments: ["--maxmemory", "3mb", "--maxmemory-policy", "volatile-ttl"])
        defer { redis.stop() }
        let clock = FloodClock()
        let app = try Self.floodApp(.redis(try RedisConfiguration(url: redis.url)), clock: clock)
        await #expect(try Self.run(app, clock: clock, flood: 12_000, returnEvery: 3_000) == 0)
    }

    @Test("a signed-in user's arrangement survives an anonymous flood")
    func signedInUser() async throws {
        let app = try makeApp {
            $0.sessions = .memory(capacity: 500)
            $0.newSessionRate = 0
            $0.identityHeader = "X-Forwarded-User"
        }
        let user = [("X-Forwarded-User", "ada")]
        let browser = TestClient(app.responder)
        let editor = await browser.get("/more/edit", headers: user)
        let token = try #require(editor.csrfToken)
        let version = try #require(editor.customizeVersion)
        let moved = await browser.post(
            "/more/edit", form: [("csrf", token), ("version", version), ("action", "bar"), ("tab", "audiobooks")],
            headers: user)
        #expect(moved.status == 303)
        let arranged = await browser.get("/more", headers: user).moreTabIDs
        #expect(!arranged.contains("audiobooks"))
        for _ in 0..<3_000 { _ = await Self.floodRequest(app) }
        // Another browser of the same user: the arrangement comes from the user's record.
        await #expect(TestClient(app.responder).get("/more", headers: user).moreTabIDs == arranged)
        #expect(app.engineStore.admission.evictedUsers == 0)
    }
}
