// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// Listens to the sentinels' `+switch-master` announcements on its own connection and
/// thread, and tells the client when its master has been replaced, so that every
/// connection moves to the new master at once rather than when the old one fails
/// (after a `SENTINEL FAILOVER` the old master goes on accepting writes until the
/// sentinels demote it, seconds later). Subscribes on one sentinel, the next one when
/// that one is away, and tries again once a second while none answers; an announcement
/// missed meanwhile is made up for by the client's own checks (`READONLY`, failures).
///
/// ```swift
/// let watcher = RedisSentinelWatcher(client: client)   // nil without sentinels
/// watcher?.start()
/// watcher?.stop()      // ends the thread within about a quarter second
/// ```
public final class RedisSentinelWatcher: Sendable {
    private let client: RedisClient
    private let sentinels: RedisSentinels
    private let stopped = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let switches = Atomic<Int>(0)
    private let subscribed = Atomic<Bool>(false)

    /// A watcher for `client`'s sentinels; nil when the client has none.
    public init?(client: RedisClient) {
        guard let sentinels = client.configuration.sentinels, !sentinels.addresses.isEmpty else { return nil }
        self.client = client
        self.sentinels = sentinels
    }

    /// Whether it is subscribed on a sentinel right now (for tests).
    public var isSubscribed: Bool { subscribed.load(ordering: .relaxed) }
    /// How many switches of this master it has heard since start.
    public var switchesHeard: Int { switches.load(ordering: .relaxed) }

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
        var next = 0
        while !stopped.load(ordering: .relaxed) {
            let sentinel = sentinels.addresses[next % sentinels.addresses.count]
            next += 1
            do {
                // A sentinel has no databases: no SELECT on this connection.
                var configuration = client.configuration.server(host: sentinel.host, port: sentinel.port)
                configuration.database = 0
                let connection = try RedisConnection(configuration: configuration)
                try connection.sendWithoutReply([Array("SUBSCRIBE".utf8), Array("+switch-master".utf8)])
                while !stopped.load(ordering: .relaxed) {
                    guard let reply = try connection.nextPush(timeout: .milliseconds(250)) else { continue }
                    guard case .array(let parts) = reply, parts.count == 3, let kind = parts[0].string else { continue }
                    if kind == "subscribe" {
                        subscribed.store(true, ordering: .relaxed)
                    } else if kind == "message", let text = parts[2].string,
                        text.split(separator: " ").first.map(String.init) == sentinels.masterName
                    {
                        // "<name> <old host> <old port> <new host> <new port>"
                        switches.wrappingAdd(1, ordering: .relaxed)
                        client.forgetMaster()
                    }
                }
            } catch {
                subscribed.store(false, ordering: .relaxed)
                // After a full round of sentinels that did not answer, pause before the next.
                if next % sentinels.addresses.count == 0 {
                    for _ in 0..<4 where !stopped.load(ordering: .relaxed) { usleep(250_000) }
                }
            }
        }
        subscribed.store(false, ordering: .relaxed)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
