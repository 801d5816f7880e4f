// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerCore
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

/// `/readyz` says what a write needs: with `--redis-wait-replicas N`, that many replicas
/// online (one server, Sentinel's master, each primary of a cluster), and on a cluster every
/// slot served. A load balancer then sends no visitor to an instance whose writes would fail.
@Suite("Readiness tells whether a write can succeed", .serialized)
struct ReadinessTests {
    static func app(_ url: String, waitReplicas: Int) throws -> Application {
        let parsed = try AppConfiguration.parse(
            arguments: [
                "--sessions", url, "--redis-wait-replicas", String(waitReplicas), "--csrf-secret",
                String(repeating: "s", count: 32),
            ], environment: [:], base: sevenTabConfiguration())
        guard case .run(let configuration) = parsed else { throw SentinelCluster.NotReady(description: "help") }
        return try buildApplication(configuration, content: DemoCatalog(), redis: .standard, log: quietLog)
    }

    /// Whether a visitor's tap is stored now (a new session choosing Movies).
    static func writes(_ app: Application) async -> Bool {
        let client = TestClient(app.responder)
        guard let token = await client.get("/tabs/featured").csrfToken else { return false }
        return await client.post("/select", form: [("csrf", token), ("tab", "movies")]).status == 303
    }

    @Test("one Redis server: not ready while writes wait for a replica that is not there, ready once it is")
    func oneServer() async throws {
        let primary = try RedisServer(arguments: ["--repl-diskless-sync-delay", "0"])
        defer { primary.stop() }
        let app = try Self.app(primary.url, waitReplicas: 1)
        #expect(await TestClient(app.responder).get("/readyz").status == 503)
        #expect(await !Self.writes(app), "the check can fail: writes do fail then")
        let replica = try RedisServer(arguments: ["--replicaof", "127.0.0.1", String(primary.port)])
        defer { replica.stop() }
        let ready = await waitUntil(.seconds(30), every: .milliseconds(100)) {
            await TestClient(app.responder).get("/readyz").status == 200
        }
        #expect(ready)
        // Writes go through now (each waits for the replica's acknowledgement, which a
        // machine under load may give late: asked until one is stored).
        #expect(await waitUntil(.seconds(30), every: .milliseconds(100)) { await Self.writes(app) })
        // Without a wait for replicas the lone server is ready as it is.
        let plain = try RedisServer()
        defer { plain.stop() }
        #expect(await TestClient(try Self.app(plain.url, waitReplicas: 0).responder).get("/readyz").status == 200)
    }

    @Test("Sentinel: ready with the master's one replica for a wait of 1; not ready for a wait of 2")
    func sentinel() async throws {
        let cluster = try SentinelCluster()
        let one = try Self.app(cluster.url, waitReplicas: 1)
        let ready = await waitUntil(.seconds(30), every: .milliseconds(100)) {
            await TestClient(one.responder).get("/readyz").status == 200
        }
        #expect(ready)
        let two = try Self.app(cluster.url, waitReplicas: 2)
        #expect(await TestClient(two.responder).get("/readyz").status == 503)
        #expect(await !Self.writes(two))
    }

    @Test("a cluster: each primary needs its replica and cluster_state:ok; slots no primary serves make it not ready")
    func cluster() async throws {
        let cluster = try RedisClusterServer()
        defer { cluster.stop() }
        let app = try Self.app(cluster.url, waitReplicas: 1)
        let ready = await waitUntil(.seconds(30), every: .milliseconds(100)) {
            await TestClient(app.responder).get("/readyz").status == 200
        }
        #expect(ready)
        // A replica gone: its primary's shard cannot take a write that waits for it.
        let primary = try #require(cluster.primary(forSlot: 0))
        let replica = try #require(
            cluster.nodes.first { node in
                node.port != primary.port && cluster.ask(node, ["ROLE"]).contains("\(primary.port)")
            })
        cluster.crash(replica)
        let answer = await waitUntil(.seconds(30), every: .milliseconds(100)) {
            await TestClient(app.responder).get("/readyz").status == 503
        }
        #expect(answer)
        let text = await TestClient(app.responder).get("/readyz").body
        #expect(text.contains("shard 127.0.0.1:\(primary.port) slots 0-"), "\(text)")
        #expect(text.contains("0 of 1 replica(s) acknowledged"), "\(text)")

        // Slots no primary serves (as while a cluster is still being made): not ready.
        let plain = try Self.app(cluster.url, waitReplicas: 0)
        #expect(await TestClient(plain.responder).get("/readyz").status == 200)
        // Every node forgets who serves the last 384 slots (DELSLOTS is not passed on, and
        // gossip may tell a node again for a moment: asked until every node has forgotten).
        var last = ""
        let converging = await waitUntil(.seconds(30), every: .milliseconds(200)) {
            for node in cluster.nodes where node.isRunning {
                _ = cluster.ask(node, ["CLUSTER", "DELSLOTSRANGE", "16000", "16383"])
            }
            last = await TestClient(plain.responder).get("/readyz").body
            return last.contains("384 of 16384 slots not served yet")
        }
        #expect(converging, "\(last)")
        #expect(await TestClient(plain.responder).get("/readyz").status == 503)
    }
}
