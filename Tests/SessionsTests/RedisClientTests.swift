// SPDX-License-Identifier: Apache-2.0
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@Suite("Redis URL parsing")
struct RedisURLTests {
    @Test(
        "well-formed URLs give host, port and database",
        arguments: [
            ("redis://127.0.0.1", "127.0.0.1", 6379, 0),
            ("redis://127.0.0.1/", "127.0.0.1", 6379, 0),
            ("redis://localhost:6380", "localhost", 6380, 0),
            ("redis://cache.internal:7000/5", "cache.internal", 7000, 5),
            ("redis://redis_1/2", "redis_1", 6379, 2),
            ("REDIS://10.0.0.5:1/15", "10.0.0.5", 1, 15),
            ("redis://[::1]:6390/1", "::1", 6390, 1),
            ("redis://[::1]", "::1", 6379, 0),
        ])
    func valid(url: String, host: String, port: Int, database: Int) throws {
        let configuration = try RedisConfiguration(url: url)
        #expect(configuration.host == host)
        #expect(configuration.port == port)
        #expect(configuration.database == database)
        #expect(configuration.connectTimeout == .milliseconds(500))
        #expect(configuration.commandTimeout == .milliseconds(500))
    }

    @Test(
        "malformed URLs are refused, naming the URL and the problem",
        arguments: [
            ("", "scheme"),
            ("127.0.0.1:6379", "scheme"),
            ("http://127.0.0.1:6379", "scheme"),
            ("rediss://127.0.0.1:6379", "TLS"),
            ("redis://", "host"),
            ("redis://:6379", "host"),
            ("redis://host:", "port"),
            ("redis://host:0", "port"),
            ("redis://host:65536", "port"),
            ("redis://host:63a9", "port"),
            ("redis://host:-1", "port"),
            ("redis://host:6379/x", "database"),
            ("redis://host:6379/-1", "database"),
            ("redis://host:6379/1/2", "database"),
            ("redis://host:6379/0?timeout=1", "query"),
            ("redis://host#top", "fragment"),
            ("redis://user:secret@host:6379", "credentials"),
            ("redis://ho st:6379", "white space"),
            ("redis://::1:6379", "IPv6"),
            ("redis://[::1", "unclosed"),
            ("redis://[zz]:1", "IPv6"),
            ("redis://hôst", "host"),
        ])
    func malformed(url: String, problem: String) {
        do {
            let configuration = try RedisConfiguration(url: url)
            Issue.record("accepted \(url) as \(configuration)")
        } catch {
            #expect(error.kind == .invalidURL)
            #expect(error.reason.contains("\"\(url)\""), "\(error.reason)")
            #expect(error.reason.contains(problem), "\(error.reason)")
            #expect(error.reason.contains("expected redis://host[:port][/database]"))
        }
    }

    @Test("the store refuses a malformed URL with the same reason")
    func storeRefuses() {
        #expect(throws: SessionStoreError.self) { try RedisSessionStore(url: "redis://host:port") }
    }
}

@Suite("RedisClient and RedisConnection")
struct RedisClientTests {
    let redis: RedisServer
    let client: RedisClient

    init() throws {
        redis = try RedisServer()
        client = try RedisClient(url: redis.url)
    }

    @Test("every reply type comes back as its case, and an error reply keeps the connection")
    func replyTypes() throws {
        #expect(try client.command(["PING"]) == .status("PONG"))
        #expect(try client.command(["SET", "greeting", "hello"]) == .status("OK"))
        #expect(try client.command(["GET", "greeting"]) == .bulkString(Array("hello".utf8)))
        #expect(try client.command(["GET", "greeting"]).string == "hello")
        #expect(try client.command(["GET", "missing"]) == .null)
        #expect(try client.command(["INCRBY", "counter", "41"]) == .integer(41))
        #expect(try client.command(["RPUSH", "list", "a", "b"]).integer == 2)
        #expect(
            try client.command(["LRANGE", "list", "0", "-1"])
                == .array([.bulkString(Array("a".utf8)), .bulkString(Array("b".utf8))]))
        #expect(try client.command(["LRANGE", "missing", "0", "-1"]) == .array([]))
        let failure = try client.command(["NOSUCHCOMMAND", "x"])
        #expect(failure.errorMessage?.hasPrefix("ERR") == true)
        let wrongType = try client.command(["INCR", "list"])
        #expect(wrongType.errorMessage?.hasPrefix("WRONGTYPE") == true)
        #expect(try client.command(["GET", "greeting"]).string == "hello", "still usable after error replies")
        #expect(!client.isBackingOff)
    }

    @Test("arguments and values are binary-safe, empty ones included")
    func binarySafe() throws {
        let value: [UInt8] = [0, 1, 0xFF, 0x0D, 0x0A, 0, 0x80]
        #expect(try client.command([Array("SET".utf8), [0, 0xFE], value]) == .status("OK"))
        #expect(try client.command([Array("GET".utf8), [0, 0xFE]]) == .bulkString(value))
        #expect(try client.command(["SET", "empty", ""]) == .status("OK"))
        #expect(try client.command(["GET", "empty"]) == .bulkString([]))
        #expect(try client.command(["STRLEN", "empty"]) == .integer(0))
        let large = [UInt8](repeating: 0x61, count: 1_000_000)
        #expect(try client.command([Array("SET".utf8), Array("large".utf8), large]) == .status("OK"))
        #expect(try client.command(["GET", "large"]).bytes == large)
    }

    @Test("a script's SHA-1 is the one Redis computes, and EVAL covers an empty script cache")
    func scripts() throws {
        #expect(RedisScript("abc").sha1 == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(RedisScript("").sha1 == "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        let script = RedisScript("return {KEYS[1], ARGV[1], tonumber(ARGV[2]) * 2, redis.call('PING')}")
        #expect(try client.command(["SCRIPT", "LOAD", script.source]).string == script.sha1)
        let long = RedisScript(String(repeating: "-- padding past one SHA-1 block\n", count: 20) + "return 7")
        #expect(try client.command(["SCRIPT", "LOAD", long.source]).string == long.sha1)

        _ = try client.command(["SCRIPT", "FLUSH"])
        let expected: RedisReply = .array([
            .bulkString(Array("key".utf8)), .bulkString(Array("value".utf8)), .integer(42), .status("PONG"),
        ])
        #expect(
            try client.evaluate(script, keys: [Array("key".utf8)], arguments: ["value", "21"].map { Array($0.utf8) })
                == expected)
        #expect(try client.command(["SCRIPT", "EXISTS", script.sha1]) == .array([.integer(1)]))
        #expect(
            try client.evaluate(script, keys: [Array("key".utf8)], arguments: ["value", "21"].map { Array($0.utf8) })
                == expected)
    }

    @Test("a connection selects its database")
    func selectDatabase() throws {
        let configuration = RedisConfiguration(host: "127.0.0.1", port: redis.port, database: 4)
        let connection = try RedisConnection(configuration: configuration)
        _ = try connection.command(["SET", "where", "four"])
        #expect(try client.command(["EXISTS", "where"]) == .integer(0))
        #expect(try connection.command(["GET", "where"]).string == "four")

        let refused = RedisConfiguration(host: "127.0.0.1", port: redis.port, database: 100_000)
        do {
            _ = try RedisConnection(configuration: refused)
            Issue.record("SELECT 100000 was accepted")
        } catch {
            #expect(error.kind == .connectionFailed)
            #expect(error.reason.contains("127.0.0.1:\(redis.port)"))
            #expect(error.reason.contains("SELECT"))
        }
    }

    @Test("a command with no reply in time fails after the command timeout and breaks the connection")
    func commandTimeout() throws {
        var configuration = RedisConfiguration(host: "127.0.0.1", port: redis.port)
        configuration.commandTimeout = .milliseconds(300)
        let connection = try RedisConnection(configuration: configuration)
        let (error, elapsed) = RedisTestHelpers.failure { () throws(RedisError) in
            _ = try connection.command(["BLPOP", "nothing-comes", "3"])
        }
        // Timed out, not answered: BLPOP would answer nil after 3 s. A lower bound only (a
        // loaded machine can make it later, never sooner).
        #expect(error?.kind == .timedOut)
        #expect(error?.reason.contains("127.0.0.1:\(redis.port)") == true)
        #expect(elapsed >= Duration.milliseconds(250), "took \(elapsed)")
        #expect(connection.isBroken)
        #expect(throws: RedisError.self) { try connection.command(["PING"]) }
    }

    @Test("a refused connection names the server, then calls fail fast while backing off")
    func refusedThenFailFast() throws {
        redis.stop()
        do {
            _ = try client.command(["PING"])
            Issue.record("PING to a stopped server succeeded")
        } catch {
            #expect(error.kind == .connectionFailed)
            #expect(error.reason.contains("redis 127.0.0.1:\(redis.port)"), "\(error.reason)")
        }
        #expect(client.isBackingOff)
        // Failing fast is `.unavailable`: the client did not try to connect (that would fail
        // as `.connectionFailed`).
        let (error, _) = RedisTestHelpers.failure { () throws(RedisError) in _ = try client.command(["PING"]) }
        #expect(error?.kind == .unavailable)
        #expect(error?.reason.contains("127.0.0.1:\(redis.port)") == true)
    }

    @Test("many threads share one client safely")
    func concurrentCommands() throws {
        let client = self.client
        RedisTestHelpers.onThreads(8) { thread in
            for _ in 0..<250 {
                _ = try? client.command(["INCR", "shared"])
                _ = try? client.command(["INCR", "thread:\(thread)"])
            }
        }
        #expect(try client.command(["GET", "shared"]).integer == 2_000)
        for thread in 0..<8 {
            #expect(try client.command(["GET", "thread:\(thread)"]).integer == 250)
        }
    }
}
