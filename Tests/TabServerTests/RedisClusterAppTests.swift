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

/// The app on a real Redis Cluster (`RedisClusterServer`: 3 primaries, 3 replicas on
/// loopback): instances sharing visitors and live events, start-up refusals, a primary
/// killed under load, slots resharded under load.
@Suite("Sessions on a Redis Cluster", .serialized)
struct RedisClusterAppTests {
    /// A configuration as the command line gives it: `--sessions URL` and more flags.
    static func configuration(_ url: String, _ more: [String] = []) throws -> AppConfiguration {
        let parsed = try AppConfiguration.parse(
            arguments: ["--sessions", url, "--csrf-secret", String(repeating: "s", count: 32)] + more,
            environment: [:], base: sevenTabConfiguration())
        guard case .run(let configuration) = parsed else { throw SentinelCluster.NotReady(description: "help") }
        return configuration
    }

    static func app(_ url: String, _ more: [String] = []) throws -> Application {
        try buildApplication(configuration(url, more), content: DemoCatalog(), redis: .standard, log: quietLog)
    }

    @Test("two instances share visitors' state and live events; /readyz and /metrics report each shard")
    func twoInstances() async throws {
        let cluster = try RedisClusterServer()
        defer { cluster.stop() }
        let a = try Self.app(cluster.url)
        let b = try Self.app(cluster.url)
        let server = try b.start()
        defer {
            server.shutdown()
            a.responder.events.closeAll()
            b.responder.events.closeAll()
        }

        // State written on one instance is read on the other, for visitors on every shard.
        var slotsSeen = Set<Int>()
        for _ in 0..<12 {
            let onA = TestClient(a.responder)
            let token = try #require(await onA.get("/tabs/featured").csrfToken)
            #expect(await onA.post("/select", form: [("csrf", token), ("tab", "tv")]).status == 303)
            #expect(await onA.get("/tabs/tv/shows/3").status == 200)
            let onB = TestClient(b.responder)
            onB.cookies = onA.cookies
            #expect(await onB.get("/").location == "/tabs/tv/shows/3")
            let cookie = try #require(onA.cookies["tabserver_session"])
            slotsSeen.insert(RedisSlot.of(Array(cookie.utf8)) * 3 / RedisSlot.count)
        }
        #expect(slotsSeen.count > 1, "visitors on more than one shard")

        // A badge set on A reaches the visitor's stream on B.
        let live = LiveEventsTests()
        let watcher = TestClient(a.responder)
        #expect(await watcher.get("/tabs/music").status == 200)
        let cookie = try #require(watcher.cookies["tabserver_session"])
        let stream = try live.subscribe(server.port, cookie: cookie)
        #expect(live.read(stream, until: "retry:").contains("200"))
        let id = try #require(SessionID(cookieValue: cookie))
        let arrived = await waitUntil(.seconds(10), every: .milliseconds(100)) { () async in
            _ = try? await a.setBadge(.badge(.text("Sale")), forTab: "movies", visitor: id)
            return live.read(stream, until: "\"Sale\"", seconds: 0.1).contains("\"Sale\"")
        }
        #expect(arrived, "a badge set on one instance reaches a stream on the other")

        // Readiness and metrics name each primary.
        let ready = await TestClient(a.responder).get("/readyz")
        #expect(ready.status == 200)
        let readyText = ready.body
        #expect(readyText.components(separatedBy: ": up\n").count - 1 == 3, "\(readyText)")
        let metricsApp = try Self.app(cluster.url, ["--metrics", "on"])
        let metrics = await TestClient(metricsApp.responder).get("/metrics").body
        let shardLines = metrics.split(separator: "\n").filter { $0.hasPrefix("tabserver_session_store_shard_up{") }
        #expect(shardLines.count == 3 && shardLines.allSatisfy { $0.hasSuffix(" 1") }, "\(shardLines)")

        // A primary down: not ready, and the answer says which shard.
        let victim = try #require(cluster.primary(forSlot: 0))
        cluster.crash(victim)
        let down = await TestClient(a.responder).get("/readyz")
        #expect(down.status == 503)
        #expect(down.body.contains("shard 127.0.0.1:\(victim.port) slots 0-"), "\(down.body)")
        #expect(down.body.contains(": down\n"), "\(down.body)")
    }

    @Test(
        "start-up stops with a clear message: no node answers, the cluster is not ok, not a cluster, a brace in the prefix"
    )
    func refusedAtStart() throws {
        func refusal(_ url: String, _ more: [String] = []) -> String {
            do {
                _ = try Self.app(url, more)
                return "started"
            } catch {
                return "\(error)"
            }
        }
        // Nothing listens on these ports.
        let nobody = "redis-cluster://127.0.0.1:\(RedisServer.freePort()),127.0.0.1:\(RedisServer.freePort())"
        let none = refusal(nobody)
        #expect(none.contains("no node of the cluster answered"), "\(none)")
        #expect(none.contains("cannot connect"), "\(none)")

        // Cluster nodes that were never joined: no slot is assigned.
        let loose = try RedisServer(arguments: ["--cluster-enabled", "yes"])
        defer { loose.stop() }
        let notOK = refusal("redis-cluster://127.0.0.1:\(loose.port)")
        #expect(notOK.contains("cluster_state:fail"), "\(notOK)")
        #expect(notOK.contains("slots assigned 0 of 16384"), "\(notOK)")

        // One plain Redis named as a cluster.
        let plain = try RedisServer()
        defer { plain.stop() }
        let notCluster = refusal("redis-cluster://127.0.0.1:\(plain.port)")
        #expect(notCluster.contains("is not a Redis Cluster node"), "\(notCluster)")

        // The same plain Redis as one server still works.
        #expect(refusal(plain.url) == "started")

        // A brace in the key prefix would take the hash tag's place.
        let braced = refusal("redis-cluster://127.0.0.1:\(loose.port)", ["--redis-prefix", "app{x}:"])
        #expect(braced.contains("holds a brace"), "\(braced)")
    }
}
