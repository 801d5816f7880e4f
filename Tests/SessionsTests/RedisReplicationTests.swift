// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@Suite("Redis Sentinel URLs")
struct RedisSentinelURLTests {
    @Test("the sentinels (26379 unless given), the master's name, and the database")
    func valid() throws {
        let configuration = try RedisConfiguration(url: "redis-sentinel://10.0.0.1,sentinel-2:26380,[::1]:7/sessions/2")
        #expect(configuration.sentinels?.masterName == "sessions")
        #expect(
            configuration.sentinels?.addresses.map(\.endpoint) == ["10.0.0.1:26379", "sentinel-2:26380", "[::1]:7"])
        #expect(configuration.database == 2)
        #expect(configuration.url == "redis-sentinel://10.0.0.1:26379,sentinel-2:26380,[::1]:7/sessions/2")
        let plain = try RedisConfiguration(url: "REDIS-SENTINEL://127.0.0.1/m")
        #expect(plain.database == 0)
        #expect(plain.sentinels?.addresses == [RedisSentinels.Address(host: "127.0.0.1")])
        #expect(try RedisConfiguration(url: "redis://127.0.0.1:6380/1").url == "redis://127.0.0.1:6380/1")
    }

    @Test(
        "malformed ones are refused, naming the URL and the problem",
        arguments: [
            ("redis-sentinel://", "host"),
            ("redis-sentinel://10.0.0.1", "master name is missing"),
            ("redis-sentinel://10.0.0.1/", "master name is missing"),
            ("redis-sentinel://a,,b/m", "host is empty"),
            ("redis-sentinel://a:0/m", "port"),
            ("redis-sentinel://a/m*x", "master name"),
            ("redis-sentinel://a/m/x", "database"),
            ("redis-sentinel://a/m/1/2", "database"),
            ("redis-sentinel://u:p@a/m", "credentials"),
            ("redis-sentinel://a/m?x=1", "query"),
        ])
    func malformed(url: String, problem: String) {
        do {
            let configuration = try RedisConfiguration(url: url)
            Issue.record("accepted \(url) as \(configuration)")
        } catch {
            #expect(error.kind == .invalidURL)
            #expect(error.reason.contains("\"\(url)\""), "\(error.reason)")
            #expect(error.reason.contains(problem), "\(error.reason)")
            #expect(error.reason.contains("expected redis-sentinel://"), "\(error.reason)")
        }
    }

    @Test("WAIT's timeout is at most half the command timeout, and never 0")
    func waitTimeout() {
        var configuration = RedisConfiguration(host: "127.0.0.1")
        #expect(configuration.waitMilliseconds == 250)
        configuration.commandTimeout = .milliseconds(300)
        #expect(configuration.waitMilliseconds == 150)
        configuration.waitTimeout = .zero
        #expect(configuration.waitMilliseconds == 1)
    }
}

@Suite("Redis replicas: READONLY and WAIT", .serialized)
struct RedisReplicationTests {
    @Test("a READONLY answer breaks the connection: the client backs off, the store goes down")
    func readOnly() throws {
        let master = try RedisServer()
        let replica = try RedisServer(arguments: ["--replicaof", "127.0.0.1", String(master.port)])
        let client = try RedisClient(url: replica.url)
        do {
            _ = try client.command(["SET", "k", "v"])
            Issue.record("a replica took a write")
        } catch {
            #expect(error.kind == .readOnlyReplica, "\(error)")
        }
        #expect(client.isBackingOff)
        let store = try RedisSessionStore(url: replica.url)
        #expect(throws: SessionStoreError.self) { try store.insert(.new(now: 1_000)) }
        #expect(!store.health.isUp)
    }

    @Test("with waitReplicas 1 and no replica, writes fail as not replicated; the store stays up, reads go on")
    func notReplicated() throws {
        let lone = try RedisServer()
        var configuration = try RedisConfiguration(url: lone.url)
        configuration.waitReplicas = 1
        configuration.waitTimeout = .milliseconds(20)
        let client = RedisClient(configuration: configuration)
        do {
            _ = try client.command([Array("SET".utf8), Array("k".utf8), Array("v".utf8)], replicated: true)
            Issue.record("acknowledged without a replica")
        } catch {
            #expect(error.kind == .notReplicated, "\(error)")
            #expect(error.reason.contains("0 of 1 replica(s)"), "\(error.reason)")
        }
        #expect(!client.isBackingOff)
        #expect(try client.command(["GET", "k"]).string == "v", "the master has it all the same")

        let store = RedisSessionStore(client: client)
        #expect(throws: SessionStoreError.self) { try store.insert(.new(now: 1_000)) }
        #expect(store.health.isUp, "reads go on")
        #expect(!store.checkReady(), "not ready: a write would fail as this one did")

        // Pipelined: the write fails, a read beside it does not.
        let pipeline = RedisPipeline(client: client)
        let results = Mutex<[String: Result<RedisReply, RedisError>]>([:])
        pipeline.send([Array("GET".utf8), Array("k".utf8)]) { result in results.withLock { $0["read"] = result } }
        pipeline.send([Array("SET".utf8), Array("k".utf8), Array("w".utf8)], replicated: true) { result in
            results.withLock { $0["write"] = result }
        }
        #expect(waitUntil(.seconds(5)) { results.withLock { $0.count } == 2 })
        let answers = results.withLock { $0 }
        #expect((try? answers["read"]?.get())?.string != nil)
        if case .failure(let error) = answers["write"] {
            #expect(error.kind == .notReplicated)
        } else {
            Issue.record("the pipelined write was acknowledged: \(String(describing: answers["write"]))")
        }
    }
}
