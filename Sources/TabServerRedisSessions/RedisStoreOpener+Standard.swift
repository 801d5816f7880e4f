// SPDX-License-Identifier: Apache-2.0
import TabServerCore
import TabServerRedis
import TabServerSessions

extension RedisStoreOpener {
    /// Sessions in `RedisSessionStore`, live events relayed over Redis pub/sub on the
    /// channel `keyPrefix + "events"`; both on one client, so that in Sentinel mode they
    /// follow a failover together.
    public static let standard = RedisStoreOpener { redis, keyPrefix, lifetime, healthLog, log in
        let client = RedisClient(configuration: redis)
        let store = RedisSessionStore(client: client, lifetime: lifetime, keyPrefix: keyPrefix, log: healthLog)
        return (store, RedisEventRelay(client: client, channel: keyPrefix + "events", log: log))
    }
}
