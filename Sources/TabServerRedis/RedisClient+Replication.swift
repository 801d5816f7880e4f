// SPDX-License-Identifier: Apache-2.0
/// Writes that count only once replicas have them (`configuration.waitReplicas`).
///
/// Redis replicates asynchronously: a master that acknowledged a write and then died
/// may take it with it, since the replica promoted in its place never got it. `WAIT N
/// timeout` after a write returns how many replicas have every write of the
/// connection so far; when that is fewer than N, the write fails with
/// `.notReplicated` here, so nobody is told it is done. It is still on the master, and
/// survives unless the master fails before the replicas catch up.
extension RedisClient {
    /// Runs one command and returns its reply; when `replicated` and
    /// `configuration.waitReplicas` is above 0, `WAIT` follows it on the same connection
    /// in the same round trip, and too few acknowledgements throw `.notReplicated`.
    public func command(_ arguments: [[UInt8]], replicated: Bool) throws(RedisError) -> RedisReply {
        if let cluster { return try cluster.run(arguments, replicated: replicated) }
        return try withConnection { connection throws(RedisError) in
            try replicatedCommand(arguments, on: connection, replicated: replicated)
        }
    }

    /// `WAIT waitReplicas timeout`, or nil when writes need no replica.
    public var waitCommand: [[UInt8]]? {
        guard configuration.waitReplicas > 0 else { return nil }
        return [
            Array("WAIT".utf8), Array(String(configuration.waitReplicas).utf8),
            Array(String(configuration.waitMilliseconds).utf8),
        ]
    }

    /// The failure a `WAIT` reply means, or nil when enough replicas acknowledged.
    public func replicationFailure(_ reply: RedisReply, endpoint: String) -> RedisError? {
        let wanted = configuration.waitReplicas
        if let acknowledged = reply.integer, acknowledged >= wanted { return nil }
        let said =
            reply.integer.map { "\($0) of \(wanted) replica(s) acknowledged the write" } ?? "WAIT answered \(reply)"
        return RedisError(
            .notReplicated, endpoint: endpoint, "\(said) within \(configuration.waitMilliseconds) ms")
    }

    /// `arguments`, then `WAIT` when asked for, in one round trip on `connection`.
    func replicatedCommand(_ arguments: [[UInt8]], on connection: RedisConnection, replicated: Bool)
        throws(RedisError) -> RedisReply
    {
        guard replicated, let wait = waitCommand else { return try connection.command(arguments) }
        let replies = try connection.pipeline([arguments, wait])
        // An error reply (NOSCRIPT: nothing ran) goes back as it is, whatever WAIT said.
        if replies[0].errorMessage != nil { return replies[0] }
        if let failure = replicationFailure(replies[1], endpoint: connection.endpoint) { throw failure }
        return replies[0]
    }
}

extension RedisClient {
    /// Why a write could not succeed now, or nil when it could: the server answers, is a
    /// primary (in Sentinel mode, the master the sentinels named), and, when writes wait
    /// for replicas, has at least `configuration.waitReplicas` of them online, which
    /// acknowledge a write of `probeKey` (it expires in a minute) within the `WAIT`
    /// timeout: a replica just connected is listed online before it can acknowledge
    /// anything. For `/readyz`: a write that needs more replicas than answer fails after
    /// its `WAIT`, so such a server is not ready. `clusterNode`: a primary of a cluster,
    /// which must also say `cluster_state:ok`.
    public func writeProblem(probeKey: String, clusterNode: Bool = false) -> String? {
        let info: String
        do {
            guard let text = try command(["INFO", "replication"]).string else { return "INFO gave no text" }
            info = text
        } catch {
            return "\(error)"
        }
        let fields = Self.infoFields(info)
        guard fields["role"] == "master" else { return "the server is a \(fields["role"] ?? "node of no known role")" }
        if clusterNode {
            do {
                guard let cluster = try command(["CLUSTER", "INFO"]).string else { return "CLUSTER INFO gave no text" }
                let state = Self.infoFields(cluster)["cluster_state"] ?? "unknown"
                guard state == "ok" else { return "cluster_state:\(state)" }
            } catch {
                return "\(error)"
            }
        }
        let wanted = configuration.waitReplicas
        guard wanted > 0 else { return nil }
        let online = fields.filter { $0.key.hasPrefix("slave") && $0.value.contains("state=online") }.count
        if online < wanted { return "\(online) of \(wanted) replica(s) connected" }
        do {
            _ = try command(
                [Array("SET".utf8), Array(probeKey.utf8), [0x31], Array("PX".utf8), Array("60000".utf8)],
                replicated: true)
            return nil
        } catch {
            return error.reason
        }
    }

    /// The `name:value` lines of an `INFO` answer.
    static func infoFields(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[String(line[..<colon])] = String(line[line.index(after: colon)...])
        }
        return fields
    }
}
