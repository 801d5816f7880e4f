// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerRedisSessions

/// The client and the store on a real cluster: six `redis-server --cluster-enabled yes`
/// on loopback (3 primaries, 3 replicas), made by `RedisClusterServer`. Slots are moved
/// by hand (`CLUSTER SETSLOT`, `MIGRATE`), as `redis-cli --cluster reshard` does, so that
/// each redirection is met at a known moment.
@Suite("Redis Cluster client", .serialized)
struct RedisClusterTests {
    @Test(
        "MOVED and ASK are followed, by calls and by the pipeline; two stores share sessions; events follow a moved slot"
    )
    func onOneCluster() throws {
        let cluster = try RedisClusterServer()
        defer { cluster.stop() }
        let client = try RedisClient(url: cluster.url)
        try client.ping()
        #expect(client.slotMap?.shards.count == 3)
        #expect(client.slotMap?.unassignedSlots == 0)

        // MOVED: the slot moved for good after the client read the map. The map is read
        // again in the background once a second, so of three tries at least one must
        // meet the MOVED answer itself.
        for name in ["moved:{a}", "moved:{b}", "moved:{c}"] {
            #expect(try client.command(["SET", name, "v-\(name)"]) == .status("OK"))
            try moveSlot(of: name, in: cluster, keysFirst: nil)
            #expect(try client.command(["GET", name]) == .bulkString(Array("v-\(name)".utf8)))
        }
        #expect(client.redirectionsFollowed.moved >= 1, "\(client.redirectionsFollowed)")

        // The pipeline follows MOVED too, on its own thread, in order.
        let pipeline = RedisPipeline(client: client)
        let movedBefore = client.redirectionsFollowed.moved
        for name in ["piped:{a}", "piped:{b}", "piped:{c}"] {
            #expect(try client.command(["SET", name, "p-\(name)"]) == .status("OK"))
            try moveSlot(of: name, in: cluster, keysFirst: nil)
            #expect(try reply(through: pipeline, ["GET", name]) == .bulkString(Array("p-\(name)".utf8)))
        }
        #expect(client.redirectionsFollowed.moved > movedBefore, "\(client.redirectionsFollowed)")

        // ASK: while a slot migrates, a key already moved is asked for on the importing
        // node (after ASKING); one not moved yet is served where it was.
        let gone = "ask:{slot}:gone"
        let stays = "ask:{slot}:stays"
        let piped = "ask:{slot}:piped"
        for name in [gone, stays, piped] { #expect(try client.command(["SET", name, name]) == .status("OK")) }
        let migration = try Migration(of: gone, in: cluster)
        try migration.begin()
        try migration.move([gone, piped])
        #expect(try client.command(["GET", gone]) == .bulkString(Array(gone.utf8)))
        #expect(try client.command(["GET", stays]) == .bulkString(Array(stays.utf8)))
        #expect(try reply(through: pipeline, ["GET", piped]) == .bulkString(Array(piped.utf8)))
        #expect(client.redirectionsFollowed.asked >= 2, "\(client.redirectionsFollowed)")
        // A write during the migration lands where the key is (ASK for a moved key).
        #expect(try client.command(["SET", gone, "rewritten"]) == .status("OK"))
        try migration.move([stays])
        try migration.finish()
        #expect(try client.command(["GET", gone]) == .bulkString(Array("rewritten".utf8)))
        #expect(try client.command(["GET", stays]) == .bulkString(Array(stays.utf8)))

        // Two stores on the cluster (two instances) share sessions; a session's key
        // carries its id as hash tag.
        let storeA = try RedisSessionStore(url: cluster.url)
        let storeB = try RedisSessionStore(url: cluster.url)
        let now: Int64 = 1_800_000_000
        var sessions: [Session] = []
        for _ in 0..<20 {
            let session = RedisTestHelpers.richSession(now: now)
            try storeA.insert(session)
            sessions.append(session)
        }
        for session in sessions {
            #expect(storeA.key(for: session.id) == "tabserver:session:{\(session.id.text)}")
            let loaded = try #require(try storeB.load(session.id, now: now + 1))
            #expect(loaded.state == session.state)
            var changed = loaded
            changed.state.selectedTabID = "video"
            let stored = try #require(try storeB.update(changed))
            #expect(try storeA.load(session.id, now: now + 2)?.state.selectedTabID == "video")
            #expect(try storeA.update(changed) == nil, "a write on a stale revision loses")
            #expect(stored.revision == changed.revision + 1)
        }
        #expect(Set(sessions.map { RedisSlot.of(Array(storeA.key(for: $0.id).utf8)) * 3 / 16_384 }).count > 1)
        #expect(storeA.checkReady())
        #expect(storeA.shards?.count == 3 && storeA.shards?.allSatisfy(\.isUp) == true)

        // Events: a sharded relay on each "instance"; a visitor's event reaches the other,
        // and still does after the slot of its channel moved to another primary.
        let relayA = try #require(RedisClusterEventRelay(client: storeA.client, keyPrefix: "tabserver:session:"))
        let relayB = try #require(RedisClusterEventRelay(client: storeB.client, keyPrefix: "tabserver:session:"))
        let heard = Mutex<[String]>([])
        relayB.start { payload in heard.withLock { $0.append(String(decoding: payload, as: UTF8.self)) } }
        defer { relayB.stop() }
        #expect(waitUntil(.seconds(5)) { relayB.isSubscribed })
        let visitor = sessions[0].id.text
        let channel = relayA.channel(for: Array("origin\n\(visitor)\nbadge\n{}".utf8))
        #expect(RedisSlot.of(Array(channel.utf8)) / 1024 == RedisSlot.of(Array(visitor.utf8)) / 1024)
        relayA.publish(Array("origin\n\(visitor)\nbadge\n{\"n\":1}".utf8))
        #expect(waitUntil(.seconds(5)) { heard.withLock { $0.contains { $0.hasSuffix("{\"n\":1}") } } })
        try moveSlot(of: channel, in: cluster, keysFirst: nil)
        let delivered = waitUntil(.seconds(10), every: .milliseconds(50)) {
            relayA.publish(Array("origin\n\(visitor)\nbadge\n{\"n\":2}".utf8))
            return heard.withLock { $0.contains { $0.hasSuffix("{\"n\":2}") } }
        }
        #expect(delivered, "an event after its channel's slot moved")
        #expect(relayA.publishFailures == 0)
    }

    /// The reply to `words` sent through `pipeline`, waited for (at most 5 s).
    private func reply(through pipeline: RedisPipeline, _ words: [String]) throws -> RedisReply? {
        let result = Mutex<Result<RedisReply, RedisError>?>(nil)
        pipeline.send(words.map { Array($0.utf8) }) { outcome in result.withLock { $0 = outcome } }
        _ = waitUntil(.seconds(5)) { result.withLock { $0 } != nil }
        return try result.withLock { $0 }?.get()
    }

    /// Moves the slot of `key` to another primary, keys and all.
    private func moveSlot(of key: String, in cluster: RedisClusterServer, keysFirst: [String]?) throws {
        let migration = try Migration(of: key, in: cluster)
        try migration.begin()
        try migration.moveAll()
        try migration.finish()
    }
}

/// One slot moved from its primary to another by hand, the steps `redis-cli --cluster
/// reshard` takes: `SETSLOT IMPORTING` on the target, `MIGRATING` on the source,
/// `MIGRATE` of each key, then `SETSLOT NODE` everywhere.
struct Migration {
    let slot: Int
    let source: RedisClient
    let target: RedisClient
    let sourceID: String
    let targetID: String
    let targetPort: Int
    let others: [RedisClient]

    init(of key: String, in cluster: RedisClusterServer) throws {
        slot = RedisSlot.of(Array(key.utf8))
        let from = try #require(cluster.primary(forSlot: slot))
        let to = try #require(cluster.primaries.first { $0.port != from.port })
        source = try RedisClient(url: from.url)
        target = try RedisClient(url: to.url)
        sourceID = cluster.nodeID(from)
        targetID = cluster.nodeID(to)
        targetPort = to.port
        others = try cluster.primaries.filter { $0.port != from.port && $0.port != to.port }.map {
            try RedisClient(url: $0.url)
        }
    }

    func begin() throws {
        try expectOK(target.command(["CLUSTER", "SETSLOT", String(slot), "IMPORTING", sourceID]))
        try expectOK(source.command(["CLUSTER", "SETSLOT", String(slot), "MIGRATING", targetID]))
    }

    func move(_ keys: [String]) throws {
        for key in keys {
            try expectOK(source.command(["MIGRATE", "127.0.0.1", String(targetPort), key, "0", "5000"]))
        }
    }

    func moveAll() throws {
        let keys = try source.command(["CLUSTER", "GETKEYSINSLOT", String(slot), "1000"]).array ?? []
        try move(keys.compactMap(\.string))
    }

    func finish() throws {
        for node in [target, source] + others {
            try expectOK(node.command(["CLUSTER", "SETSLOT", String(slot), "NODE", targetID]))
        }
    }

    private func expectOK(_ reply: RedisReply) throws {
        guard reply == .status("OK") || reply == .status("NOKEY") else {
            throw RedisError(.protocolError, "slot \(slot): \(reply)")
        }
    }
}
