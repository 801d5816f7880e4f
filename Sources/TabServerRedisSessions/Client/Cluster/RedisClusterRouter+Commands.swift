// SPDX-License-Identifier: Apache-2.0
/// Commands on the cluster: routed by slot, redirections followed.
extension RedisClusterRouter {
    /// Most redirections one command follows before it fails (a map in flux settles in one
    /// or two).
    static let maxRedirections = 5

    /// A `MOVED` or `ASK` error reply, taken apart.
    struct Redirection {
        var asking: Bool
        var endpoint: String

        /// The redirection `message` stands for, nil for any other error.
        init?(_ message: String) {
            let parts = message.split(separator: " ")
            guard parts.count == 3, parts[0] == "MOVED" || parts[0] == "ASK", Int(parts[1]) != nil else { return nil }
            asking = parts[0] == "ASK"
            endpoint = String(parts[2])
        }
    }

    /// Runs `command` on the primary of its key's slot, following `MOVED` and `ASK`;
    /// `replicated`: followed by `WAIT` on that primary (see `RedisClient.command(_:replicated:)`).
    func run(_ command: [[UInt8]], replicated: Bool) throws(RedisError) -> RedisReply {
        let slot = RedisSlot.routingKey(of: command).map(RedisSlot.of)
        let route = try route(forSlot: slot)
        let reply = try send(command, replicated: replicated, to: route, asking: false)
        guard let message = reply.errorMessage, let redirection = Redirection(message) else { return reply }
        return try follow(redirection, command, replicated: replicated)
    }

    /// Sends `command` where `redirection` says, and on where further ones say.
    func follow(_ first: Redirection, _ command: [[UInt8]], replicated: Bool) throws(RedisError) -> RedisReply {
        var redirection = first
        for _ in 0..<Self.maxRedirections {
            if redirection.asking {
                askedFollowed.wrappingAdd(1, ordering: .relaxed)
            } else {
                movedFollowed.wrappingAdd(1, ordering: .relaxed)
                requestRefresh()
            }
            let route = try route(toEndpoint: redirection.endpoint)
            let reply = try send(command, replicated: replicated, to: route, asking: redirection.asking)
            guard let message = reply.errorMessage, let next = Redirection(message) else { return reply }
            redirection = next
        }
        throw RedisError(
            .protocolError,
            "redis-cluster \(configuration.url): still redirected after \(Self.maxRedirections) tries (last to \(redirection.endpoint))"
        )
    }

    /// `EVALSHA`, then `EVAL` on `NOSCRIPT`, each routed and redirected.
    func evaluate(_ script: RedisScript, tail: [[UInt8]], replicated: Bool) throws(RedisError) -> RedisReply {
        let reply = try run([Array("EVALSHA".utf8), Array(script.sha1.utf8)] + tail, replicated: replicated)
        guard let message = reply.errorMessage, message.hasPrefix("NOSCRIPT") else { return reply }
        return try run([Array("EVAL".utf8), Array(script.source.utf8)] + tail, replicated: replicated)
    }

    /// One command on one node; a failure to reach it has the map read again.
    private func send(_ command: [[UInt8]], replicated: Bool, to route: Route, asking: Bool) throws(RedisError)
        -> RedisReply
    {
        do {
            if asking { return try route.client.askingCommand(command, replicated: replicated) }
            return try route.client.command(command, replicated: replicated)
        } catch {
            if error.kind != .notReplicated { requestRefresh() }
            throw error
        }
    }

    /// Reads the map now and sends `PING` to every primary; throws the first failure.
    func probe() throws(RedisError) {
        let routing = try refresh()
        for route in routing.routes { try route.client.probe() }
    }

    /// Each primary of the map (read now) with why a write to it could not succeed now
    /// (nil: it could; see `RedisClient.writeProblem`), probed with a key of
    /// `probePrefix` whose hash tag puts it in the primary's first slot.
    func shardStates(probePrefix: String) -> [(shard: RedisSlotMap.Shard, problem: String?)] {
        guard let routing = try? refresh() else { return [] }
        return zip(routing.map.shards, routing.routes).map { shard, route in
            let slot = shard.ranges.first?.lowerBound ?? 0
            return (
                shard,
                route.client.writeProblem(
                    probeKey: probePrefix + "{" + RedisSlot.tag(for: slot) + "}", clusterNode: true)
            )
        }
    }
}

extension RedisClusterRouter {
    /// Whether the client of some primary in the map backs off after a failure.
    var anyPrimaryBackingOff: Bool {
        guard let routing = currentRouting else { return false }
        return routing.routes.contains { $0.client.isBackingOff }
    }
}
