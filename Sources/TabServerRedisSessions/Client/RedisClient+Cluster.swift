// SPDX-License-Identifier: Apache-2.0
/// A client of a Redis Cluster (`configuration.cluster`): the calls that only mean
/// something there.
extension RedisClient {
    /// Whether this client talks to a Redis Cluster.
    public var isCluster: Bool { cluster != nil }

    /// For a cluster: succeeds when a seed node answers with `cluster_state:ok` and every
    /// slot has a primary, else throws `.connectionFailed` saying which of these failed.
    /// Nothing for one server or Sentinel.
    public func verifyCluster() throws(RedisError) {
        try cluster?.verify()
    }

    /// For a cluster: the `MOVED` and `ASK` redirections followed since start.
    public var redirectionsFollowed: (moved: Int, asked: Int) {
        guard let cluster else { return (0, 0) }
        return (cluster.movedFollowed.load(ordering: .relaxed), cluster.askedFollowed.load(ordering: .relaxed))
    }

    /// For a cluster: its slot map as last read (nil before the first command, and for
    /// one server or Sentinel).
    public var slotMap: RedisSlotMap? { cluster?.currentMap }

    /// For a cluster: each primary of the slot map (read now), with why a write to it
    /// could not succeed now (nil: it could; probed with keys starting `probePrefix`);
    /// empty when no node gives a map. Empty for one server or Sentinel.
    public func shardStates(probePrefix: String) -> [(shard: RedisSlotMap.Shard, problem: String?)] {
        cluster?.shardStates(probePrefix: probePrefix) ?? []
    }

    /// `ASKING`, then `arguments` (and `WAIT` when `replicated`), in one round trip on one
    /// connection: a command for a slot this node is importing.
    func askingCommand(_ arguments: [[UInt8]], replicated: Bool) throws(RedisError) -> RedisReply {
        try withConnection { connection throws(RedisError) in
            var commands = [[Array("ASKING".utf8)], arguments]
            if replicated, let wait = waitCommand { commands.append(wait) }
            let replies = try connection.pipeline(commands)
            if replies[1].errorMessage != nil || commands.count == 2 { return replies[1] }
            if let failure = replicationFailure(replies[2], endpoint: connection.endpoint) { throw failure }
            return replies[1]
        }
    }
}
