// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerRedisSessions

@Suite("Redis Cluster URLs and slots")
struct RedisClusterURLTests {
    @Test("the nodes (6379 unless given); a trailing / or /0 is allowed")
    func valid() throws {
        let configuration = try RedisConfiguration(url: "redis-cluster://10.0.0.1,node-2:7001,[::1]:7002")
        #expect(configuration.cluster?.nodes.map(\.endpoint) == ["10.0.0.1:6379", "node-2:7001", "[::1]:7002"])
        #expect(configuration.sentinels == nil)
        #expect(configuration.database == 0)
        #expect(configuration.url == "redis-cluster://10.0.0.1:6379,node-2:7001,[::1]:7002")
        #expect(try RedisConfiguration(url: "REDIS-CLUSTER://127.0.0.1:7000/").cluster?.nodes.count == 1)
        #expect(try RedisConfiguration(url: "redis-cluster://127.0.0.1:7000/0").cluster?.nodes.count == 1)
        // A node of the cluster gets the same timeouts and WAIT, without the seeds.
        var replicated = configuration
        replicated.waitReplicas = 1
        let node = replicated.server(host: "127.0.0.1", port: 7005)
        #expect(node.cluster == nil && node.waitReplicas == 1 && node.endpoint == "127.0.0.1:7005")
    }

    @Test(
        "malformed ones are refused, naming the URL and the problem",
        arguments: [
            ("redis-cluster://", "host"),
            ("redis-cluster://a,,b", "host is empty"),
            ("redis-cluster://a:0", "port"),
            ("redis-cluster://a:70000", "port"),
            ("redis-cluster://a:7000/1", "database 0 only"),
            ("redis-cluster://a:7000/sessions", "database 0 only"),
            ("redis-cluster://a:7000,a:7000", "named twice"),
            ("redis-cluster://u:p@a", "credentials"),
            ("redis-cluster://a?x=1", "query"),
            ("redis-cluster://a b", "white space"),
            ("redis-cluster://::1", "brackets"),
        ])
    func malformed(url: String, problem: String) {
        do {
            let configuration = try RedisConfiguration(url: url)
            Issue.record("accepted \(url) as \(configuration)")
        } catch {
            #expect(error.kind == .invalidURL)
            #expect(error.reason.contains("\"\(url)\""), "\(error.reason)")
            #expect(error.reason.contains(problem), "\(error.reason)")
            #expect(error.reason.contains("expected redis-cluster://"), "\(error.reason)")
        }
    }

    @Test("another scheme names the three that are known")
    func otherScheme() {
        #expect(throws: RedisError.self) { try RedisConfiguration(url: "rediscluster://a:7000") }
        do {
            _ = try RedisConfiguration(url: "valkey://a:7000")
        } catch {
            #expect(error.reason.contains("redis-cluster"), "\(error.reason)")
        }
    }

    @Test("slots are CRC16/XMODEM of the key (or its hash tag) modulo 16384")
    func slots() {
        // The check value of CRC16/XMODEM, and slots the Redis Cluster specification gives.
        #expect(RedisSlot.crc16(Array("123456789".utf8)[...]) == 0x31C3)
        #expect(RedisSlot.of(Array("123456789".utf8)) == 0x31C3 % 16_384)
        #expect(RedisSlot.of(Array("foo".utf8)) == 12_182)
        #expect(RedisSlot.of(Array("{user1000}.following".utf8)) == RedisSlot.of(Array("user1000".utf8)))
        #expect(RedisSlot.hashedPart(of: Array("foo{}{bar}".utf8)) == Array("foo{}{bar}".utf8)[...])
        #expect(RedisSlot.hashedPart(of: Array("foo{{bar}}zap".utf8)) == Array("{bar".utf8)[...])
        #expect(RedisSlot.hashedPart(of: Array("foo{bar}{zap}".utf8)) == Array("bar".utf8)[...])
        #expect(RedisSlot.hashedPart(of: Array("{abc".utf8)) == Array("{abc".utf8)[...])
    }

    @Test("a command is routed by its key: the first argument, or a script's first key")
    func routingKeys() {
        func key(_ words: [String]) -> String? {
            RedisSlot.routingKey(of: words.map { Array($0.utf8) }).map { String(decoding: $0, as: UTF8.self) }
        }
        #expect(key(["HGET", "s:{a}", "rev"]) == "s:{a}")
        #expect(key(["EVALSHA", "abc", "1", "s:{b}", "x"]) == "s:{b}")
        #expect(key(["eval", "return 1", "0"]) == nil)
        #expect(key(["PING"]) == nil)
        #expect(key(["SPUBLISH", "events:{e1}", "x"]) == "events:{e1}")
    }
}
