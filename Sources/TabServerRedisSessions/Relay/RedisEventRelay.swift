// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP
import TabServerSessions

/// Live events over Redis pub/sub: `PUBLISH` on the store's client, one subscriber
/// connection per instance. Pub/sub keeps nothing: an instance that is briefly cut off
/// misses what was sent meanwhile, and its pages catch up on their next load.
final class RedisEventRelay: EventRelay {
    private let client: RedisClient
    private let channel: [UInt8]
    private let subscriber: RedisSubscriber
    /// In Sentinel mode: hears of a failover at once, for the store's client too.
    private let watcher: RedisSentinelWatcher?
    private let failures = ErrorEpisode()
    private let log: LogSink?

    private let listener = RedisEventRelayListener()

    /// A relay on `channel` through `client`: the store's own, so that when it finds a new
    /// master after a failover, publishing and the subscription move there with it.
    init(client: RedisClient, channel: String, log: LogSink? = nil) {
        self.log = log
        self.client = client
        self.channel = Array(channel.utf8)
        let listener = listener
        subscriber = RedisSubscriber(client: client, channel: channel) { payload in
            listener.deliver.withLock { $0 }?(payload)
        }
        watcher = RedisSentinelWatcher(client: client)
    }

    /// Whether the subscription is live (tests wait for it).
    var isSubscribed: Bool { subscriber.isSubscribed }

    func start(deliver: @escaping @Sendable ([UInt8]) -> Void) {
        listener.deliver.withLock { $0 = deliver }
        subscriber.start()
        watcher?.start()
    }

    func publish(_ payload: [UInt8]) {
        // Best effort: a Redis outage already answers pages with 503; events are extras,
        // but a lost one is counted and logged (once per episode).
        do {
            _ = try client.command([Array("PUBLISH".utf8), channel, payload])
        } catch {
            guard let count = failures.record() else { return }
            log?.write("live events: \(count) PUBLISH failure(s): \(error)", level: .error)
        }
    }

    var publishFailures: Int { failures.total }

    func stop() {
        subscriber.stop()
        watcher?.stop()
    }
}
