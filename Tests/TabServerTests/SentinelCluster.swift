// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerRedisSessions
import TabServerTestSupport
import TabServerTesting

/// One master, one replica and three sentinels on loopback, each on a free port with its
/// own directory, stopped by pid when released. Ready when the replica is in sync and
/// every sentinel knows the replica and the two other sentinels (so a failover can be
/// authorized). Tuned for quick failovers on loopback, as an operator may tune them:
/// down-after 1 s, a failover timeout of 3 s, the sentinels' info period at 100 ms and
/// their hello period at 500 ms (`SENTINEL DEBUG`: a master left behind by `SENTINEL
/// FAILOVER` is demoted after four hello periods, 8 s by default; shorter than about
/// 500 ms and a sentinel that has not yet heard of the failover demotes the promoted
/// replica instead), and no delay before a replica's full sync.
final class SentinelCluster {
    /// The name the sentinels monitor the master by.
    static let masterName = "sessions"
    /// The master at start.
    let first: RedisServer
    /// Its replica at start.
    let second: RedisServer
    let sentinels: [RedisSentinelServer]

    struct NotReady: Error, CustomStringConvertible {
        let description: String
    }

    /// For every server: a replica that (re)joins is synced at once, not after 5 s.
    static let serverArguments = ["--repl-diskless-sync-delay", "0"]

    init() throws {
        first = try RedisServer(arguments: Self.serverArguments)
        second = try RedisServer(arguments: Self.serverArguments + ["--replicaof", "127.0.0.1", String(first.port)])
        var sentinels: [RedisSentinelServer] = []
        for _ in 0..<3 {
            let sentinel = try RedisSentinelServer(
                masterName: Self.masterName, masterPort: first.port, downAfter: .seconds(1),
                failoverTimeout: .seconds(3))
            let tuned = Self.ask(sentinel.port, ["SENTINEL", "DEBUG", "info-period", "100", "publish-period", "500"])
            guard tuned == .status("OK") else {
                throw NotReady(description: "SENTINEL DEBUG answered \(tuned.map { "\($0)" } ?? "nothing")")
            }
            sentinels.append(sentinel)
        }
        self.sentinels = sentinels
        // Sentinels find each other through the master every 2 s: a few seconds.
        guard waitUntil(.seconds(20), every: .milliseconds(50), { isReady }) else {
            throw NotReady(description: "the sentinels did not come to know the replica and each other within 20 s")
        }
    }

    /// `redis-sentinel://` naming the three sentinels, database 0.
    var url: String {
        "redis-sentinel://" + sentinels.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") + "/"
            + Self.masterName + "/0"
    }

    /// One command on a new connection to 127.0.0.1:`port`; nil if it cannot be sent.
    static func ask(_ port: Int, _ command: [String]) -> RedisReply? {
        guard let connection = try? RedisConnection(configuration: RedisConfiguration(host: "127.0.0.1", port: port))
        else { return nil }
        return try? connection.command(command)
    }

    /// What `ROLE` says the server is: "master", "slave", or nil when it does not answer.
    func role(_ server: RedisServer) -> String? {
        Self.ask(server.port, ["ROLE"])?.array?.first?.string
    }

    /// The master's port as every sentinel names it, when they all agree.
    var namedMasterPort: Int? {
        let ports = sentinels.map {
            Self.ask($0.port, ["SENTINEL", "get-master-addr-by-name", Self.masterName])?.array?.last?.integer
        }
        guard let port = ports.first, ports.allSatisfy({ $0 == port }) else { return nil }
        return port
    }

    /// Asks a sentinel to fail over now (`SENTINEL FAILOVER`); its answer.
    func requestFailover() -> RedisReply? {
        Self.ask(sentinels[0].port, ["SENTINEL", "FAILOVER", Self.masterName])
    }

    /// The end of the first sentinel's log, to explain a failed expectation.
    var sentinelLog: String {
        func tail(_ path: String) -> String {
            String(((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").suffix(2_500))
        }
        let sentinelLogs = sentinels.enumerated().map { index, sentinel in
            "sentinel \(index) (\(sentinel.port)):\n" + tail(sentinel.directory + "/sentinel.log")
        }
        return sentinelLogs.joined(separator: "\n") + "\nfirst (\(first.port)):\n"
            + tail(first.directory + "/redis.log")
            + "\nsecond (\(second.port)):\n" + tail(second.directory + "/redis.log")
    }

    /// Whether `replica` is a replica in sync with its master.
    func replicaInSync(_ replica: RedisServer) -> Bool {
        guard let role = Self.ask(replica.port, ["ROLE"])?.array, role.count >= 4 else { return false }
        return role[0].string == "slave" && role[3].string == "connected"
    }

    private var isReady: Bool {
        guard replicaInSync(second) else { return false }
        for sentinel in sentinels {
            guard
                Self.ask(sentinel.port, ["SENTINEL", "CKQUORUM", Self.masterName])?.string?.hasPrefix("OK 3 usable")
                    == true,
                let replicas = Self.ask(sentinel.port, ["SENTINEL", "REPLICAS", Self.masterName])?.array,
                replicas.contains(where: { Self.field("flags", in: $0) == "slave" })
            else { return false }
        }
        return true
    }

    /// The value after `name` in a sentinel's flat name/value list.
    private static func field(_ name: String, in reply: RedisReply) -> String? {
        guard let items = reply.array else { return nil }
        var index = 0
        while index + 1 < items.count {
            if items[index].string == name { return items[index + 1].string }
            index += 2
        }
        return nil
    }
}
