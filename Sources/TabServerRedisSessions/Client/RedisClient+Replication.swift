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
    /// Why a write could not succeed now, or nil when it could, for `/readyz`. The server
    /// must answer (`PING`); when writes wait for replicas (`configuration.waitReplicas`),
    /// a write of `probeKey` (it expires in a minute) must be taken and acknowledged by that
    /// many within the `WAIT` timeout, as a session's write must: a replica missing, just
    /// connected and not caught up, a server that is a replica (`READONLY`), out of memory
    /// or refusing writes each fail it, saying why. `clusterNode`: a primary of a cluster,
    /// which must also say `cluster_state:ok`. Asks only what a session store may ask
    /// (`PING`, `CLUSTER INFO`, `SET` and `WAIT`).
    public func writeProblem(probeKey: @autoclosure () -> String, clusterNode: Bool = false) -> String? {
        do {
            if clusterNode {
                let reply = try command(["CLUSTER", "INFO"])
                if let message = reply.errorMessage { return message }
                let state = Self.infoFields(reply.string ?? "")["cluster_state"] ?? "unknown"
                guard state == "ok" else { return "cluster_state:\(state)" }
            }
            guard configuration.waitReplicas > 0 else {
                let reply = try command(["PING"])
                return reply == .status("PONG") ? nil : reply.errorMessage ?? "PING answered \(reply)"
            }
            let reply = try command(
                [Array("SET".utf8), Array(probeKey().utf8), [0x31], Array("PX".utf8), Array("60000".utf8)],
                replicated: true)
            return reply.errorMessage
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
