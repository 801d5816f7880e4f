// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// On a Redis Cluster, each primary is a shard: `/readyz` and `/metrics` say which answer.
extension RedisSessionStore: ShardedSessionStore {
    /// The cluster's primaries with their slots and whether each can take a write now
    /// (the map is read first): it answers, says `cluster_state:ok`, and has the replicas
    /// writes wait for (`RedisClient.writeProblem`). Slots no primary serves yet (a cluster
    /// still converging) are one more shard, down. Empty when no node gives a map; nil for
    /// one server or Sentinel.
    public var shards: [SessionStoreShard]? {
        guard client.isCluster else { return nil }
        let states = client.shardStates(probePrefix: readinessKey)
        var shards = states.map { state in
            SessionStoreShard(
                name: state.shard.primary.endpoint, detail: "slots \(state.shard.slotsText)",
                isUp: state.problem == nil, problem: state.problem)
        }
        let served = states.reduce(0) { total, state in total + state.shard.ranges.reduce(0) { $0 + $1.count } }
        if !states.isEmpty, served < Self.clusterSlots {
            shards.append(
                SessionStoreShard(
                    name: "(none)", detail: "slots not served", isUp: false,
                    problem: "\(Self.clusterSlots - served) of \(Self.clusterSlots) slots not served yet"))
        }
        return shards
    }

    /// The slots of a Redis Cluster.
    static let clusterSlots = 16_384

    /// The key (a prefix of keys, on a cluster) readiness writes to when writes wait for
    /// replicas: under the store's prefix, never a session's (no id is six letters).
    var readinessKey: String { keyPrefix + "readyz" }
}
