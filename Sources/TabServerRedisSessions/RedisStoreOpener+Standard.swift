// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

extension RedisStoreOpener {
    /// Sessions in `RedisSessionStore`, live events relayed over Redis pub/sub on the
    /// channel `keyPrefix + "events"`; both on one client, so that in Sentinel mode they
    /// follow a failover together. On a Redis Cluster, events go over sharded pub/sub
    /// (`RedisClusterEventRelay`), and start-up stops unless a node answers, the cluster
    /// says `cluster_state:ok` and every slot has a primary; the key prefix may not hold
    /// braces there, since the session id is the keys' hash tag.
    public static let standard = RedisStoreOpener {
        redis, keyPrefix, lifetime, healthLog, log throws(SessionStoreError) in
        let client = RedisClient(configuration: redis)
        guard client.isCluster else {
            let store = RedisSessionStore(client: client, lifetime: lifetime, keyPrefix: keyPrefix, log: healthLog)
            return (store, RedisEventRelay(client: client, channel: keyPrefix + "events", log: log))
        }
        guard !keyPrefix.contains("{"), !keyPrefix.contains("}") else {
            throw SessionStoreError(
                "the key prefix \"\(keyPrefix)\" holds a brace: on a Redis Cluster the session id in braces is each key's hash tag, so the prefix may not hold { or }"
            )
        }
        do throws(RedisError) {
            try client.verifyCluster()
        } catch {
            throw SessionStoreError(error.reason)
        }
        let store = RedisSessionStore(client: client, lifetime: lifetime, keyPrefix: keyPrefix, log: healthLog)
        // A cluster client always makes a sharded relay.
        let relay = RedisClusterEventRelay(client: client, keyPrefix: keyPrefix, log: log)!
        return (store, relay)
    }
}
