// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerRedisConfiguration

/// Opens sessions in Redis, for an app whose configuration names one
/// (`--sessions redis://…`). The opener that does it, `.standard`, lives in the
/// `TabServerRedisSessions` product, so an app that never uses Redis does not link
/// hiredis: such an app passes nothing, and a Redis configuration then stops start-up
/// saying what to add.
///
/// ```swift
/// import TabServerRedisSessions
/// let app = try buildApplication(configuration, content: content, redis: .standard)
/// ```
public struct RedisStoreOpener: Sendable {
    /// The store, and the relay that carries live events between the instances sharing it.
    public typealias Opened = (store: any SessionStore, relay: any EventRelay)

    package let open:
        @Sendable (
            _ redis: RedisConfiguration, _ keyPrefix: String, _ lifetime: SessionLifetime,
            _ healthLog: @escaping StoreHealth.Log, _ log: LogSink
        ) throws(SessionStoreError) -> Opened

    /// An opener running `open` (the `TabServerRedisSessions` product gives `.standard`);
    /// an error it throws stops start-up with its reason.
    public init(
        _ open:
            @escaping @Sendable (
                _ redis: RedisConfiguration, _ keyPrefix: String, _ lifetime: SessionLifetime,
                _ healthLog: @escaping StoreHealth.Log, _ log: LogSink
            ) throws(SessionStoreError) -> Opened
    ) {
        self.open = open
    }

    /// The schemes it opens: one server, Sentinel's master, a cluster.
    public static let schemes = ["redis", "redis-sentinel", "redis-cluster"]

    /// This opener as the registry takes it: for `.redis(_, keyPrefix:)` configurations.
    public var opener: SessionStoreRegistry.Opener {
        { [open] configuration, opening throws(SessionStoreError) in
            guard case .redis(let redis, let keyPrefix) = configuration else {
                throw SessionStoreRegistry.mismatch(configuration, "redis")
            }
            let opened = try open(redis, keyPrefix, opening.lifetime, opening.healthLog, opening.log)
            return (opened.store, opened.relay)
        }
    }
}
