// SPDX-License-Identifier: Apache-2.0
import TabServerRedis
import TabServerSessions

/// On a Redis Cluster, each primary is a shard: `/readyz` and `/metrics` say which answer.
extension RedisSessionStore: ShardedSessionStore {
    /// The cluster's primaries with their slots and whether each answers `PING` (the map
    /// is read first); empty when no node gives a map; nil for one server or Sentinel.
    public var shards: [SessionStoreShard]? {
        guard client.isCluster else { return nil }
        return client.shardStates().map { state in
            SessionStoreShard(
                name: state.shard.primary.endpoint, detail: "slots \(state.shard.slotsText)", isUp: state.isUp)
        }
    }
}
