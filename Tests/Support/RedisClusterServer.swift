// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTesting

#if canImport(Glibc)
    import Glibc
#endif

/// A real Redis Cluster for tests: `nodes` `redis-server --cluster-enabled yes` on free
/// loopback ports, each in its own temporary directory (`RedisServer`), joined with
/// `redis-cli --cluster create … --cluster-replicas N --cluster-yes`; stopped by pid.
/// Node timeouts are short (`nodeTimeout`), so a killed primary's replica takes over
/// within a few seconds; a replica always may (`cluster-replica-validity-factor 0`), and
/// syncs at once (`repl-diskless-sync-delay 0`), and the other shards go on serving while
/// one has no primary (`cluster-require-full-coverage no`). A node started again (`RedisServer.start()`)
/// keeps its `nodes.conf`, so it rejoins: a killed primary comes back as a replica.
///
/// ```swift
/// let cluster = try RedisClusterServer()            // 3 primaries, 3 replicas
/// let store = try RedisSessionStore(url: cluster.url)
/// cluster.crash(cluster.primary(forSlot: 0)!)         // kill -9; its replica is promoted
/// ```
public final class RedisClusterServer {
    /// Every node, in start order (primaries first, as `--cluster create` assigns them).
    public let nodes: [RedisServer]
    /// `redis-cluster://` naming every node.
    public var url: String { "redis-cluster://" + nodes.map { "127.0.0.1:\($0.port)" }.joined(separator: ",") }
    private let cli: String

    /// Starts `primaries * (1 + replicasEach)` nodes, creates the cluster, and waits (at
    /// most 30 s) until every node says `cluster_state:ok`.
    public init(primaries: Int = 3, replicasEach: Int = 1, nodeTimeout: Duration = .milliseconds(1_000)) throws {
        guard let cli = RedisServer.findExecutable("redis-cli") else {
            throw RedisServer.StartError(
                description: "redis-cli not found on PATH (install it: scripts/setup.sh --test)")
        }
        self.cli = cli
        let timeout =
            nodeTimeout.components.seconds * 1_000 + nodeTimeout.components.attoseconds / 1_000_000_000_000_000
        var nodes: [RedisServer] = []
        for _ in 0..<(primaries * (1 + replicasEach)) {
            nodes.append(
                try RedisServer(arguments: [
                    "--cluster-enabled", "yes", "--cluster-node-timeout", String(timeout),
                    "--cluster-replica-validity-factor", "0", "--repl-diskless-sync-delay", "0",
                    "--cluster-require-full-coverage", "no",
                ]))
        }
        self.nodes = nodes
        let output = try run(
            ["--cluster", "create"] + nodes.map { "127.0.0.1:\($0.port)" }
                + ["--cluster-replicas", String(replicasEach), "--cluster-yes"], within: .seconds(60))
        guard output.contains("[OK] All 16384 slots covered") else {
            throw RedisServer.StartError(description: "redis-cli --cluster create failed:\n\(output.suffix(2_000))")
        }
        guard waitUntilOK() else {
            throw RedisServer.StartError(description: "the cluster did not reach cluster_state:ok within 30 s")
        }
    }

    /// Runs `redis-cli` with `arguments` and returns what it printed (output and errors),
    /// waiting at most `within`.
    @discardableResult
    public func run(_ arguments: [String], within timeout: Duration = .seconds(20)) throws -> String {
        let child = try ChildProcess([cli] + arguments, standardOutput: .pipe)
        let deadline = ContinuousClock.now + timeout
        var output = ""
        while ContinuousClock.now < deadline {
            let chunk = child.readOutput(within: deadline - ContinuousClock.now)
            if chunk.isEmpty { break }
            output += chunk
        }
        if child.waitForExit(.seconds(1)) == nil { _ = child.stop(SIGKILL) }
        return output
    }

    /// What `redis-cli -p <node> <command…>` prints.
    public func ask(_ node: RedisServer, _ command: [String]) -> String {
        (try? run(["-h", "127.0.0.1", "-p", String(node.port)] + command, within: .seconds(5))) ?? ""
    }

    /// Whether `node` answers and says `cluster_state:ok`.
    public func isOK(_ node: RedisServer) -> Bool {
        ask(node, ["CLUSTER", "INFO"]).contains("cluster_state:ok")
    }

    /// The node's cluster id (`CLUSTER MYID`).
    public func nodeID(_ node: RedisServer) -> String {
        ask(node, ["CLUSTER", "MYID"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The running node that serves `slot` as primary, as the first running node that
    /// answers tells it (`CLUSTER NODES`).
    public func primary(forSlot slot: Int) -> RedisServer? {
        for node in nodes where node.isRunning {
            let listing = ask(node, ["CLUSTER", "NODES"])
            guard !listing.isEmpty else { continue }
            for line in listing.split(separator: "\n") {
                let fields = line.split(separator: " ")
                guard fields.count >= 8, fields[2].contains("master"), !fields[2].contains("fail") else { continue }
                let serves = fields[8...].contains { range in
                    let bounds = range.split(separator: "-").compactMap { Int($0) }
                    if bounds.count == 1 { return bounds[0] == slot }
                    return bounds.count == 2 && bounds[0] <= slot && slot <= bounds[1]
                }
                guard serves, let port = Int(fields[1].split(separator: ":")[1].split(separator: "@")[0]) else {
                    continue
                }
                return nodes.first { $0.port == port }
            }
            return nil
        }
        return nil
    }

    /// The running nodes that are primaries now.
    public var primaries: [RedisServer] {
        nodes.filter { $0.isRunning && ask($0, ["ROLE"]).hasPrefix("master") }
    }

    /// Kills `node` at once (SIGKILL), as a crash would.
    public func crash(_ node: RedisServer) {
        node.crash()
    }

    /// Moves `count` slots from the primary `from` to the primary `to` with `redis-cli
    /// --cluster reshard` (keys and all, slot by slot); returns what it printed.
    @discardableResult
    public func reshard(from: RedisServer, to: RedisServer, count: Int, within timeout: Duration = .seconds(120))
        throws -> String
    {
        try run(
            [
                "--cluster", "reshard", "127.0.0.1:\(from.port)", "--cluster-from", nodeID(from), "--cluster-to",
                nodeID(to), "--cluster-slots", String(count), "--cluster-yes", "--cluster-pipeline", "100",
            ], within: timeout)
    }

    /// Waits (at most `timeout`) until `redis-cli --cluster check` finds every node agreeing
    /// on the slots (after a reshard the last nodes learn the new owners a moment later, and
    /// a reshard started before then stops with "Nodes don't agree about configuration").
    public func waitUntilAgreed(_ timeout: Duration = .seconds(30)) -> Bool {
        guard let node = nodes.first(where: \.isRunning) else { return false }
        return waitUntil(timeout, every: .milliseconds(200)) {
            let report = (try? run(["--cluster", "check", "127.0.0.1:\(node.port)"])) ?? ""
            return report.contains("All nodes agree about slots configuration") && !report.contains("[ERR]")
        }
    }

    /// Waits (at most `timeout`) until every running node says `cluster_state:ok`.
    public func waitUntilOK(_ timeout: Duration = .seconds(30)) -> Bool {
        waitUntil(timeout, every: .milliseconds(100)) { nodes.filter(\.isRunning).allSatisfy { isOK($0) } }
    }

    /// Stops every node.
    public func stop() {
        for node in nodes { node.stop() }
    }
}
