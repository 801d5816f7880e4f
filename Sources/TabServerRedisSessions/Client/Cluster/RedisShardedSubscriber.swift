// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// Listens on sharded pub/sub channels of a Redis Cluster (`SSUBSCRIBE`, Redis 7) on its
/// own thread: one connection to each primary that serves some of the channels' slots,
/// waited on together. A message published with `SPUBLISH` reaches the primary (and
/// replicas) of its channel's slot only, not every node, so the cost of events is spread
/// over the shards like the data.
///
/// When a channel's slot moves (resharding: the node ends the subscription with
/// `sunsubscribe`), when the client sees a failover or when a connection fails, it
/// subscribes again along the map as read then (read anew after a moved slot). Messages published meanwhile
/// are lost, as pub/sub keeps nothing.
///
/// ```swift
/// let subscriber = RedisShardedSubscriber(client: client, channels: ["app:events:{a}"]) { bytes in … }
/// subscriber?.start()
/// subscriber?.stop()      // ends the thread within about a quarter second
/// ```
public final class RedisShardedSubscriber: Sendable {
    private let cluster: RedisClusterRouter
    private let channels: [[UInt8]]
    private let onMessage: @Sendable ([UInt8]) -> Void
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let subscribed = Atomic<Bool>(false)
    private let resubscriptions = Atomic<Int>(0)

    /// A subscriber to `channels` on `client`'s cluster; nil when the client is not on a
    /// cluster. Nothing connects until `start`.
    public init?(client: RedisClient, channels: [String], onMessage: @escaping @Sendable ([UInt8]) -> Void) {
        guard let cluster = client.cluster else { return nil }
        self.cluster = cluster
        self.channels = channels.map { Array($0.utf8) }
        self.onMessage = onMessage
    }

    /// Whether every channel's subscription is live right now (for readiness and tests).
    public var isSubscribed: Bool { subscribed.load(ordering: .relaxed) }
    /// How many times it subscribed anew after a change (for tests).
    public var resubscribed: Int { resubscriptions.load(ordering: .relaxed) }

    /// Starts listening (once).
    public func start() {
        guard !started.exchange(true, ordering: .relaxed) else { return }
        WorkerThread.detach { [self] in listen() }
    }

    /// Stops listening; the thread ends at its next wake-up.
    public func stop() {
        stopped.store(true, ordering: .relaxed)
    }

    private func listen() {
        var first = true
        while !stopped.load(ordering: .relaxed) {
            if !first { resubscriptions.wrappingAdd(1, ordering: .relaxed) }
            first = false
            do {
                try listenOnce()
            } catch {
                cluster.requestRefresh()
            }
            subscribed.store(false, ordering: .relaxed)
            // Pause before subscribing again, unless stopping.
            for _ in 0..<2 where !stopped.load(ordering: .relaxed) { usleep(125_000) }
        }
        subscribed.store(false, ordering: .relaxed)
    }

    /// Subscribes along the map, and listens until stopped, the map changes, a slot moves
    /// or a connection fails.
    private func listenOnce() throws(RedisError) {
        let epoch = cluster.epoch
        let routing = try cluster.routing()
        var groups: [Int: [[UInt8]]] = [:]
        for channel in channels {
            guard let shard = routing.map.shardIndex(forSlot: RedisSlot.of(channel)) else {
                throw RedisError(.unavailable, "redis-cluster: no primary serves the slot of a channel")
            }
            groups[shard, default: []].append(channel)
        }
        var connections: [RedisConnection] = []
        for (shard, names) in groups {
            let primary = routing.map.shards[shard].primary
            let connection = try RedisConnection(
                configuration: cluster.configuration.server(host: primary.host, port: primary.port))
            // One command per channel: channels of one SSUBSCRIBE must share a slot.
            for name in names { try connection.sendWithoutReply([Array("SSUBSCRIBE".utf8), name]) }
            connections.append(connection)
        }
        var confirmed = 0
        while !stopped.load(ordering: .relaxed), cluster.epoch == epoch {
            var descriptors = connections.map { pollfd(fd: $0.descriptor, events: Int16(POLLIN), revents: 0) }
            guard poll(&descriptors, nfds_t(descriptors.count), 250) > 0 else { continue }
            for connection in connections {
                while let reply = try connection.nextPush(timeout: .zero) {
                    if let message = reply.errorMessage {
                        throw RedisError(.protocolError, endpoint: connection.endpoint, "SSUBSCRIBE: \(message)")
                    }
                    guard case .array(let parts) = reply, parts.count == 3, case .bulkString(let kind) = parts[0]
                    else { continue }
                    switch String(decoding: kind, as: UTF8.self) {
                    case "ssubscribe":
                        confirmed += 1
                        if confirmed == channels.count { subscribed.store(true, ordering: .relaxed) }
                    case "smessage":
                        if case .bulkString(let payload) = parts[2] { onMessage(payload) }
                    case "sunsubscribe":
                        // The channel's slot has moved to another primary: subscribe there,
                        // along the map as it is now.
                        try cluster.refresh()
                        return
                    default:
                        continue
                    }
                }
            }
        }
    }
}
