// SPDX-License-Identifier: Apache-2.0
import TabServerCore
import TabServerRedis
import TabServerSessions

extension RedisStoreOpener {
    /// Sessions in `RedisSessionStore`, live events relayed over Redis pub/sub on the
    /// channel `keyPrefix + "events"`.
    public static let standard = RedisStoreOpener { redis, keyPrefix, lifetime, healthLog, log in
        let store = RedisSessionStore(
            client: RedisClient(configuration: redis), lifetime: lifetime, keyPrefix: keyPrefix, log: healthLog)
        return (store, RedisEventRelay(configuration: redis, channel: keyPrefix + "events", log: log))
    }
}
