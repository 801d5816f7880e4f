// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServer
import TabServerCore
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

#if canImport(Glibc)
    import Glibc
#endif

/// Sessions on Redis Sentinel follow a failover without a restart.
/// One master, one replica and three sentinels on loopback; instances with
/// `--redis-wait-replicas 1`. Visitors write (select tabs) until their first refusal;
/// a probe visitor writes and another reads throughout, timing the 503s; after the
/// failover a fresh instance reads every visitor's session and finds each acknowledged
/// write, and a live event published on one instance reaches a stream on another.
@Suite("Redis Sentinel failover", .serialized)
struct RedisSentinelFailoverTests {
    @Test("SENTINEL FAILOVER: 503 for a few seconds at most, then serving on the new master without a restart")
    func requestedFailover() async throws {
        try await failover(crash: false)
    }

    @Test("kill -9 of the master: 503 for a few seconds at most, then serving on the promoted replica")
    func killedMaster() async throws {
        try await failover(crash: true)
    }

    @Test("the URL names the sentinels and the master; --redis-wait-replicas reaches the client's configuration")
    func configuration() throws {
        let parsed = try Self.configuration("redis-sentinel://10.0.0.1,10.0.0.2:26380,[::1]/sessions/3")
        guard case .redis(let redis, _) = parsed.sessions else {
            Issue.record("not a Redis store: \(parsed.sessions)")
            return
        }
        #expect(redis.waitReplicas == 1)
        #expect(redis.database == 3)
        #expect(redis.sentinels?.masterName == "sessions")
        #expect(redis.sentinels?.addresses.map(\.endpoint) == ["10.0.0.1:26379", "10.0.0.2:26380", "[::1]:26379"])
        #expect(parsed.sessions.description == "redis-sentinel://10.0.0.1:26379,10.0.0.2:26380,[::1]:26379/sessions/3")
        for bad in [
            "redis-sentinel://10.0.0.1", "redis-sentinel://10.0.0.1/", "redis-sentinel://a,,b/m",
            "redis-sentinel://a/m x",
        ] {
            #expect(throws: ConfigurationError.self, "\(bad)") { try SessionStoreConfiguration(bad) }
        }
    }

    /// A configuration as the command line gives it: `--sessions URL --redis-wait-replicas 1`.
    static func configuration(_ url: String) throws -> AppConfiguration {
        let parsed = try AppConfiguration.parse(
            arguments: [
                "--sessions", url, "--redis-wait-replicas", "1", "--csrf-secret", String(repeating: "s", count: 32),
            ], environment: [:], base: sevenTabConfiguration())
        guard case .run(let configuration) = parsed else { throw SentinelCluster.NotReady(description: "help") }
        return configuration
    }

    /// What one visitor did: its writes in order, the tab of each acknowledged one last.
    struct Visitor: Sendable {
        var cookie = ""
        var acknowledged = 0
        var lastAcknowledgedTab = "music"
        /// The write refused (it may or may not have been applied), after which it stopped.
        var refusedTab: String?
    }

    /// Requests of the probe visitors, in order: when, and whether they succeeded.
    final class Timeline: Sendable {
        struct Entry: Sendable {
            var at: ContinuousClock.Instant
            var ok: Bool
        }
        let entries = Mutex<[Entry]>([])
        func record(_ ok: Bool) { entries.withLock { $0.append(Entry(at: .now, ok: ok)) } }
        /// Successes in a row at the end.
        var successesAtEnd: Int {
            entries.withLock { entries in entries.reversed().prefix { $0.ok }.count }
        }
        var failures: Int { entries.withLock { $0.filter { !$0.ok }.count } }
        /// From the first failure to the first success after the last failure (zero if none).
        var window: Duration {
            entries.withLock { entries in
                guard let first = entries.firstIndex(where: { !$0.ok }),
                    let last = entries.lastIndex(where: { !$0.ok })
                else { return .zero }
                let back = entries[(last + 1)...].first?.at ?? entries[last].at
                return back - entries[first].at
            }
        }
    }

    private func failover(crash: Bool) async throws {
        let cluster = try SentinelCluster()
        let configuration = try Self.configuration(cluster.url)
        let app = try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: quietLog)
        let other = try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: quietLog)
        let otherServer = try other.start()
        defer {
            app.responder.events.closeAll()
            otherServer.shutdown()
            other.responder.events.closeAll()
        }

        // A live stream on the other instance, relayed from this one.
        let live = LiveEventsTests()
        let watcher = TestClient(app.responder)
        let first = await watcher.get("/tabs/music")
        #expect(first.status == 200, "\(first.body.suffix(500))")
        let watcherCookie = try #require(watcher.cookies["tabserver_session"])
        let stream = try live.subscribe(otherServer.port, cookie: watcherCookie)
        #expect(live.read(stream, until: "retry:").contains("200"))
        #expect(relayed(from: app, to: stream, live: live, within: .seconds(5)) != nil, "pub/sub before the failover")

        // Visitors writing until their first refusal, and the probes.
        let stop = Atomic<Bool>(false)
        let visitors = Mutex<[Visitor]>([])
        let writes = Timeline()
        let reads = Timeline()
        var tasks: [Task<Void, Never>] = []
        func spawn(_ body: @escaping @Sendable () async -> Void) {
            // A thread each: the clients block on their calls.
            let executor = ThreadExecutor()
            tasks.append(
                Task(executorPreference: executor) {
                    await body()
                    executor.stop()
                })
        }
        let responder = app.responder
        let tabs = ["tv", "movies", "podcasts", "music"]
        for _ in 0..<6 {
            spawn {
                let client = TestClient(responder)
                var visitor = Visitor()
                guard let token = await client.get("/tabs/music").csrfToken else { return }
                visitor.cookie = client.cookies["tabserver_session"] ?? ""
                var turn = 0
                while !stop.load(ordering: .relaxed) {
                    let tab = tabs[turn % tabs.count]
                    turn += 1
                    if await client.post("/select", form: [("csrf", token), ("tab", tab)]).status == 303 {
                        visitor.acknowledged += 1
                        visitor.lastAcknowledgedTab = tab
                    } else {
                        visitor.refusedTab = tab
                        break
                    }
                    // Room on two shared cores for Redis and the sentinels to answer in time.
                    usleep(2_000)
                }
                visitors.withLock { $0.append(visitor) }
            }
        }
        spawn {
            let client = TestClient(responder)
            guard let token = await client.get("/tabs/music").csrfToken else { return }
            var turn = 0
            while !stop.load(ordering: .relaxed) {
                turn += 1
                await writes.record(
                    client.post("/select", form: [("csrf", token), ("tab", tabs[turn % tabs.count])]).status == 303)
                usleep(5_000)
            }
        }
        spawn {
            let client = TestClient(responder)
            _ = await client.get("/tabs/music")
            while !stop.load(ordering: .relaxed) {
                await reads.record(client.get("/tabs/music").status == 200)
                usleep(5_000)
            }
        }
        // (Early exits leave the writers to stop on their own: each ends at its first refusal.)
        #expect(waitUntil(.seconds(5), every: .milliseconds(20)) { writes.successesAtEnd >= 20 }, "writing before")

        // The failover.
        let oldPort = cluster.first.port
        let newPort = cluster.second.port
        let triggered = ContinuousClock.now
        if crash {
            cluster.first.crash()
        } else {
            #expect(cluster.requestFailover() == .status("OK"))
        }
        let switched = waitUntil(.seconds(20), every: .milliseconds(20)) { cluster.namedMasterPort == newPort }
        #expect(switched, "the sentinels name the replica as master:\n\(cluster.sentinelLog)")
        let sentinelsSwitched = ContinuousClock.now - triggered
        if crash {
            // As a supervisor would: the crashed master comes back, as a replica of the new one.
            try cluster.first.start(
                arguments: SentinelCluster.serverArguments + ["--replicaof", "127.0.0.1", String(newPort)])
        }
        #expect(cluster.role(cluster.second) == "master", "\(cluster.sentinelLog)")

        // Serving again, without a restart: writes (replicated) and reads succeed in a row.
        let served = waitUntil(.seconds(20), every: .milliseconds(20)) {
            writes.successesAtEnd >= 20 && reads.successesAtEnd >= 20
        }
        #expect(served, "serving again after the failover:\n\(cluster.sentinelLog)")
        stop.store(true, ordering: .relaxed)
        // Each writer's loop ends at the flag, its last call bounded by the command timeout.
        let waited = ContinuousClock.now
        for task in tasks { await task.value }
        print("sentinel failover: the writers stopped \(ContinuousClock.now - waited) after the flag")

        // Every acknowledged write is on the new master: a fresh instance reads them there.
        let reader = try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: quietLog)
        defer { reader.responder.events.closeAll() }
        let written = visitors.withLock { $0 }
        #expect(written.count == 6)
        var acknowledged = 0
        var found = 0
        for visitor in written {
            acknowledged += visitor.acknowledged
            let client = TestClient(reader.responder)
            client.cookies["tabserver_session"] = visitor.cookie
            let location = await client.get("/").location
            // The refused write may have been applied too (the master had it, the replica
            // may have got it later); anything else is an acknowledged write lost.
            let allowed = ["/tabs/\(visitor.lastAcknowledgedTab)"] + (visitor.refusedTab.map { ["/tabs/\($0)"] } ?? [])
            if let location, allowed.contains(location) {
                found += visitor.acknowledged
            } else {
                Issue.record("visitor lost writes: at \(location ?? "nil"), expected one of \(allowed)")
            }
        }
        #expect(acknowledged > 0)
        #expect(found == acknowledged, "acknowledged \(acknowledged), found \(found)")

        // Live events resume: the subscribers have moved to the new master.
        let eventsBack = relayed(from: app, to: stream, live: live, within: .seconds(10))
        #expect(eventsBack != nil, "live events after the failover")
        let id = try #require(SessionID(cookieValue: watcherCookie))
        // The old master rejoins as a replica: while it catches up, a write that waits for
        // a replica's acknowledgement (250 ms) can be refused, as the app's own writes are
        // then; it is tried again until one is acknowledged. Failing once under load made
        // this test fail with "0 of 1 replica(s) acknowledged the write".
        let badgeSet = await waitUntil(.seconds(10), every: .milliseconds(50)) { () async in
            (try? await app.setBadge(.badge(.text("Back")), forTab: "tv", visitor: id)) == true
        }
        #expect(badgeSet, "a badge set after the failover:\n\(cluster.sentinelLog)")
        #expect(live.read(stream, until: "\"Back\"").contains("\"Back\""))

        let what = crash ? "kill -9 of the master" : "SENTINEL FAILOVER"
        print(
            "redis-sentinel \(what): sentinels switched \(oldPort) → \(newPort) after \(sentinelsSwitched); "
                + "writes 503 for \(writes.window) (\(writes.failures) refused), reads 503 for \(reads.window) "
                + "(\(reads.failures) refused); acknowledged \(acknowledged), found \(found); "
                + "events relayed again \(eventsBack.map { "\($0)" } ?? "never") after serving")
        // Measured 2.4–2.8 s and 1.8–3.4 s on a shared 2-core machine; without the tuned
        // sentinel periods the requested failover refused writes for 15 s.
        let bound: Duration = crash ? .seconds(6) : .seconds(5)
        #expect(writes.window <= bound, "writes refused for \(writes.window)")
        #expect(reads.window <= bound, "reads refused for \(reads.window)")
    }

    /// Publishes probe events on `app` until one arrives on `stream`; how long it took, or
    /// nil if none arrived within `limit`.
    private func relayed(
        from app: Application, to stream: RawHTTPConnection, live: LiveEventsTests, within limit: Duration
    )
        -> Duration?
    {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < limit {
            app.responder.events.publish("probe", data: "{}", to: nil)
            if live.read(stream, until: "event: probe", seconds: 0.1).contains("event: probe") {
                return ContinuousClock.now - started
            }
        }
        return nil
    }
}
