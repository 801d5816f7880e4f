// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// Listens on one Redis pub/sub channel on its own connection and thread, calling
/// `onMessage` with each message's bytes. Reconnects by itself (once a second) while
/// Redis is away; messages published meanwhile are lost, as pub/sub does not keep them.
/// Connections come from `client`, so in Sentinel mode the subscriber follows a
/// failover: after losing its connection it subscribes on the master named now.
///
/// ```swift
/// let subscriber = RedisSubscriber(client: client, channel: "app:events") { bytes in … }
/// subscriber.start()
/// subscriber.stop()      // ends the thread within about a quarter second
/// ```
public final class RedisSubscriber: Sendable {
    private let client: RedisClient
    private let channel: String
    private let onMessage: @Sendable ([UInt8]) -> Void
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    /// Whether the subscription is live right now (for readiness and tests).
    public var isSubscribed: Bool { subscribed.load(ordering: .relaxed) }
    private let subscribed = Atomic<Bool>(false)

    /// A subscriber to `channel` on `client`'s server; nothing connects until `start`.
    public init(client: RedisClient, channel: String, onMessage: @escaping @Sendable ([UInt8]) -> Void) {
        self.client = client
        self.channel = channel
        self.onMessage = onMessage
    }

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
        while !stopped.load(ordering: .relaxed) {
            do {
                let (connection, generation) = try client.connect()
                try connection.sendWithoutReply([Array("SUBSCRIBE".utf8), Array(channel.utf8)])
                // Until stopped, or until the client moves to another master (Sentinel):
                // then subscribe there, where the messages are published now.
                while !stopped.load(ordering: .relaxed), client.generation == generation {
                    guard let reply = try connection.nextPush(timeout: .milliseconds(250)) else { continue }
                    guard case .array(let parts) = reply, parts.count == 3, case .bulkString(let kind) = parts[0]
                    else { continue }
                    if kind == Array("subscribe".utf8) {
                        subscribed.store(true, ordering: .relaxed)
                    } else if kind == Array("message".utf8), case .bulkString(let payload) = parts[2] {
                        onMessage(payload)
                    }
                }
                subscribed.store(false, ordering: .relaxed)
            } catch {
                subscribed.store(false, ordering: .relaxed)
                // In Sentinel mode the next attempt asks the sentinels where the master is.
                client.forgetMaster()
                // Redis is away: try again shortly, unless stopping.
                for _ in 0..<4 where !stopped.load(ordering: .relaxed) { usleep(250_000) }
            }
        }
        subscribed.store(false, ordering: .relaxed)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
