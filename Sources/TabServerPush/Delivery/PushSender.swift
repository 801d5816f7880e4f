// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerCrypto
import TabServerThreads

/// Sends push messages to push services off the caller's thread: a bounded queue on two
/// threads of its own (`LaneQueue`: a message waits at most behind 128 others of its
/// lane; past that it is dropped and counted), each message posted on a connection of
/// its own (`PushConnection`), the whole exchange within `timeout`. A host whose message
/// ran out of time is backed off (`HostBackoff`): its next messages are not sent until
/// then, so it cannot hold a lane. The outcome goes to the caller's completion, on the
/// sender's thread: a 404 or 410 means the subscription is to be removed.
///
/// ```swift
/// let sender = try PushSender(key: vapidKey, subject: "mailto:ops@example.com")
/// sender.send(PushMessage(badge: 3), to: subscription) { result in
///     if case .gone = result { /* forget the subscription */ }
/// }
/// ```
public final class PushSender: Sendable {
    /// How many messages each outcome had (and how many were dropped), since start.
    public struct Counts: Sendable, Equatable {
        public var delivered = 0
        public var gone = 0
        public var rejected = 0
        public var refused = 0
        public var failed = 0
        public var timedOut = 0
        public var backedOff = 0
        public var dropped = 0
    }

    private let key: P256PrivateKey
    private let subject: String
    private let connection: PushConnection
    private let lanes: LaneQueue
    private let counts = Mutex(Counts())
    private let backoff: HostBackoff
    private let clock: @Sendable () -> Int64

    /// Lanes (threads) and how many messages each holds at most.
    public static let laneCount = 2
    public static let laneCapacity = 128

    /// A sender signing with `key` (VAPID) and naming `subject` (`mailto:` or an `https`
    /// URL) as its contact. `policy`: which addresses it may post to (public ones; tests
    /// add loopback). `timeout`: the most one message takes, lookup to answer.
    /// `trustedCertificatesPath`: trust only these certificates (tests), else the
    /// system's. `laneCapacity`: messages a lane holds (tests make it small). `backoff`:
    /// how long a host that timed out gets no message, at first (it doubles up to an hour).
    /// Throws when the TLS client cannot be set up.
    public init(
        key: P256PrivateKey, subject: String, policy: PushAddressPolicy = .standard,
        timeout: Duration = .seconds(10), maxResponse: Int = 16 * 1024, trustedCertificatesPath: String? = nil,
        laneCapacity: Int = PushSender.laneCapacity, backoff: Duration = .seconds(30),
        clock: @escaping @Sendable () -> Int64
    ) throws(TLSError) {
        self.key = key
        self.subject = subject
        self.clock = clock
        self.backoff = HostBackoff(first: backoff, longest: max(backoff, .seconds(3_600)))
        connection = PushConnection(
            tls: try TLSClientContext(trustedCertificatesPath: trustedCertificatesPath), resolver: PushResolver(),
            policy: policy, timeout: timeout, maxResponse: maxResponse)
        lanes = LaneQueue(lanes: Self.laneCount, capacity: laneCapacity)
    }

    /// The server's public key, for `PushManager.subscribe({ applicationServerKey })`.
    public var applicationServerKey: [UInt8] { key.publicKey.rawRepresentation }

    /// Queues `message` for `subscription`; false (and counted as dropped) when its lane
    /// is full. `completion` runs on the sender's thread with the outcome.
    @discardableResult
    public func send(
        _ message: PushMessage, to subscription: PushSubscription,
        completion: @escaping @Sendable (PushDeliveryResult) -> Void = { _ in }
    ) -> Bool {
        let accepted = lanes.add(key: subscription.endpoint.host.hashValue) { [self] in
            let result = deliver(message, to: subscription)
            record(result)
            completion(result)
        }
        if !accepted { counts.withLock { $0.dropped += 1 } }
        return accepted
    }

    /// Posts `message` now, on the caller's thread, and says what became of it (not
    /// posted when its host, or its name's domain, is backed off).
    public func deliver(_ message: PushMessage, to subscription: PushSubscription) -> PushDeliveryResult {
        let host = subscription.endpoint.host
        let domain = Self.domain(of: host)
        guard !backoff.isBackedOff(host), !backoff.isBackedOff(domain) else { return .backedOff(host: host) }
        let request: PushRequest
        do {
            request = try PushRequest(message, to: subscription, key: key, subject: subject, now: clock())
        } catch {
            return .failed(reason: "could not encrypt the message: \(error.reason)")
        }
        let outcome = connection.post(request)
        switch (outcome.slowPart, outcome.result) {
        case (.exchange, _): backoff.timedOut(host)
        // A name whose lookup never ends says nothing of the push service's own hosts: the
        // domain is backed off, so fresh names under it (one a subscription) hold no lane.
        case (.lookup, _): backoff.timedOut(domain)
        case (nil, .delivered), (nil, .gone), (nil, .rejected): backoff.answered(host)
        case (nil, _): break
        }
        return outcome.result
    }

    /// The last two labels of `host` ("push.example.net" → "example.net"): the name its
    /// owner registered, as far as a name tells without the list of public suffixes.
    static func domain(of host: String) -> String {
        let labels = host.split(separator: ".", omittingEmptySubsequences: true)
        return labels.suffix(2).joined(separator: ".")
    }

    /// The outcomes so far.
    public var outcomes: Counts { counts.withLock { $0 } }

    /// Messages queued and not yet sent.
    public var waiting: Int { lanes.waiting }

    /// Waits at most `timeout` for every queued message to be sent; false if some are left.
    public func finish(within timeout: Duration) -> Bool { lanes.finish(within: timeout) }

    private func record(_ result: PushDeliveryResult) {
        counts.withLock { counts in
            switch result {
            case .delivered: counts.delivered += 1
            case .gone: counts.gone += 1
            case .rejected: counts.rejected += 1
            case .refused: counts.refused += 1
            case .failed: counts.failed += 1
            case .timedOut: counts.timedOut += 1
            case .backedOff: counts.backedOff += 1
            }
        }
    }
}
