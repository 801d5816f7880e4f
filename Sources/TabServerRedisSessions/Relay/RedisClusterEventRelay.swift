// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions

/// Live events on a Redis Cluster, over sharded pub/sub (`SPUBLISH`/`SSUBSCRIBE`).
///
/// The slot space is cut into `rangeCount` ranges of equal size, and each range has one
/// channel, `keyPrefix + "events:{<tag>}"`, whose tag is chosen so that the channel's
/// own slot lies in that range. An event for one visitor goes on the channel of the range
/// holding the slot of that visitor's session, so it passes through the shard that
/// stores the session (while shards own whole ranges, as `redis-cli --cluster create`
/// and rebalancing by ranges leave them); an event for everyone goes on the first
/// channel. Every instance subscribes to all the channels, one connection per primary.
/// As with plain pub/sub, nothing is kept: an instance briefly cut off misses what was
/// sent meanwhile, and its pages catch up on their next load.
final class RedisClusterEventRelay: EventRelay {
    /// Ranges of the slot space, each with its own channel.
    static let rangeCount = 16

    private let client: RedisClient
    /// One channel per range, in range order.
    let channels: [String]
    private let subscriber: RedisShardedSubscriber
    private let failures = ErrorEpisode()
    private let log: LogSink?
    private let listener = RedisEventRelayListener()

    /// A relay for sessions under `keyPrefix` on `client`, which must be on a cluster.
    init?(client: RedisClient, keyPrefix: String, log: LogSink? = nil) {
        let channels = Self.channels(keyPrefix: keyPrefix)
        let listener = listener
        guard
            let subscriber = RedisShardedSubscriber(
                client: client, channels: channels, onMessage: { payload in listener.deliver.withLock { $0 }?(payload) }
            )
        else { return nil }
        self.client = client
        self.channels = channels
        self.subscriber = subscriber
        self.log = log
    }

    /// The channel of each range: the first tag `e0`, `e1`, … whose slot lies in it.
    static func channels(keyPrefix: String) -> [String] {
        let width = RedisSlot.count / rangeCount
        var tags = [String?](repeating: nil, count: rangeCount)
        var found = 0
        var candidate = 0
        while found < rangeCount {
            let tag = "e\(candidate)"
            let range = RedisSlot.of(Array(tag.utf8)) / width
            if tags[range] == nil {
                tags[range] = tag
                found += 1
            }
            candidate += 1
        }
        return tags.map { keyPrefix + "events:{" + $0! + "}" }
    }

    /// The channel for a payload: by the session named on its second line (`*`: everyone).
    func channel(for payload: [UInt8]) -> String {
        let lines = payload.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[1] != [UInt8(ascii: "*")] else { return channels[0] }
        // The session's key has its id as hash tag, so the id's slot is the key's.
        return channels[RedisSlot.of(Array(lines[1])) / (RedisSlot.count / Self.rangeCount)]
    }

    /// Whether every channel's subscription is live (tests wait for it).
    var isSubscribed: Bool { subscriber.isSubscribed }

    func start(deliver: @escaping @Sendable ([UInt8]) -> Void) {
        listener.deliver.withLock { $0 = deliver }
        subscriber.start()
    }

    func publish(_ payload: [UInt8]) {
        // Best effort, as on one server: a lost event is counted and logged once per episode.
        do {
            let reply = try client.command([Array("SPUBLISH".utf8), Array(channel(for: payload).utf8), payload])
            if let message = reply.errorMessage { throw RedisError(.protocolError, message) }
        } catch {
            guard let count = failures.record() else { return }
            log?.write("live events: \(count) SPUBLISH failure(s): \(error)", level: .error)
        }
    }

    var publishFailures: Int { failures.total }

    func stop() {
        subscriber.stop()
    }
}
