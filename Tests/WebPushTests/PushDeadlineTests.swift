// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import Synchronization
import TabServerCrypto
import TabServerPush
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One deadline for the whole of a push message: a push service that sends a byte now and
/// then cannot stretch a message past it, and a host that ran out of time is backed off.
@Suite("Push deadlines")
struct PushDeadlineTests {
    let vapid = P256PrivateKey.generate()
    let receiver = P256PrivateKey.generate()

    func subscription(port: Int, host: String = "127.0.0.1") throws -> PushSubscription {
        try PushSubscription(
            endpoint: "https://\(host):\(port)/send/x", p256dh: receiver.publicKey.rawRepresentation,
            auth: SecureRandom.bytes(16), allowingLoopback: true)
    }

    @Test(
        "a peer dripping a byte every 100 ms holds a message no longer than its deadline; its host is then backed off")
    func slowDrip() throws {
        // The peer drips for up to 60 s: a client that waits per read (as before) stays until
        // it stops, with another outcome than a timeout.
        let peer = try DripPeer(interval: .milliseconds(100), lifetime: .seconds(60))
        defer { peer.stop() }
        let sender = try PushSender(
            key: vapid, subject: "mailto:ops@example.com", policy: .testingLoopback, timeout: .seconds(1),
            clock: { Int64(time(nil)) })
        let result = sender.deliver(PushMessage(badge: 1), to: try subscription(port: peer.port))
        guard case .timedOut = result else {
            Issue.record("expected the deadline to end the message, got \(result)")
            return
        }
        #expect(peer.accepted == 1)
        // The next message to that host is not sent at all: it cannot hold a lane again.
        #expect(
            sender.deliver(PushMessage(badge: 2), to: try subscription(port: peer.port))
                == .backedOff(host: "127.0.0.1"))
        #expect(peer.accepted == 1)
        #expect(sender.outcomes.timedOut == 0, "deliver() itself counts nothing; send() does")
    }

    @Test("queued messages to a host that timed out are counted as backed off, and other hosts' still go")
    func queued() async throws {
        let peer = try DripPeer(interval: .milliseconds(100), lifetime: .seconds(60))
        defer { peer.stop() }
        let sender = try PushSender(
            key: vapid, subject: "mailto:ops@example.com", policy: .testingLoopback, timeout: .seconds(1),
            clock: { Int64(time(nil)) })
        let results = Mutex<[PushDeliveryResult]>([])
        for number in 0..<5 {
            sender.send(PushMessage(badge: number), to: try subscription(port: peer.port)) { result in
                results.withLock { $0.append(result) }
            }
        }
        #expect(sender.finish(within: .seconds(60)))
        let outcomes = sender.outcomes
        #expect(outcomes.timedOut == 1)
        #expect(outcomes.backedOff == 4)
        #expect(peer.accepted == 1)
        #expect(results.withLock { $0.count } == 5)
    }

    @Test("a bounded lookup resolves a name from /etc/hosts and says when there is no name")
    func boundedLookup() {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>? = nil
        #expect(tabserver_resolve_within("localhost", "443", &hints, 10_000, &list) == 0)
        #expect(list != nil)
        if let list { freeaddrinfo(list) }
        list = nil
        let unknown = tabserver_resolve_within("", "443", &hints, 10_000, &list)
        #expect(unknown != 0 && unknown != TABSERVER_RESOLVE_TIMED_OUT, "\(unknown)")
        #expect(list == nil)
        #expect(tabserver_resolve_within(String(repeating: "a", count: 300), "443", &hints, 10_000, &list) != 0)
    }
}
