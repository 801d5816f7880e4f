// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A budget per client (`ClientKey`): `rate` units a second, at most `burst` at once — a
/// token bucket each. Used for what a stranger could make without bound, such as new
/// sessions. The buckets live in a bounded table: a client whose bucket has refilled holds
/// nothing worth keeping and makes room first; a table full of clients mid-burst forgets
/// the least recently charged (which then starts afresh).
///
/// ```swift
/// let budget = ClientBudget(rate: 20, burst: 2_000)
/// if case .refused(let retryAfter) = budget.take(ClientKey(address: origin.client)) { … }
/// ```
public final class ClientBudget: Sendable {
    /// What taking one unit found.
    public enum Outcome: Sendable, Hashable {
        case allowed
        /// Out of budget: one unit comes back after this many seconds (at least 1).
        case refused(retryAfter: Int)
    }

    private struct Bucket {
        var tokens: Double
        var updated: UInt64
    }

    private struct Stripe {
        var buckets: [ClientKey: Bucket] = [:]
    }

    /// One stripe's lock: clients spread over several, so two engine threads charging
    /// two clients rarely wait for each other.
    private final class Lane: Sendable {
        let stripe = Mutex(Stripe())
    }

    /// Units a second.
    public let rate: Double
    /// Units a client may take at once.
    public let burst: Int
    private let lanes: [Lane]
    private let perStripe: Int
    private let clock: @Sendable () -> UInt64

    /// A budget of `rate` a second (more than 0) with `burst` at once (at least 1), for at
    /// most `clients` clients at a time; `clock` gives monotonic nanoseconds.
    public init(
        rate: Double, burst: Int, clients: Int = 65_536, clock: @escaping @Sendable () -> UInt64 = ClientBudget.now
    ) {
        self.rate = max(rate, 0.000_001)
        self.burst = max(1, burst)
        lanes = (0..<16).map { _ in Lane() }
        perStripe = max(1, clients / 16)
        self.clock = clock
    }

    /// Whether `client` has a unit left, without taking it.
    public func allows(_ client: ClientKey) -> Bool {
        let now = clock()
        return lane(of: client).stripe.withLock { stripe in
            guard let bucket = stripe.buckets[client] else { return true }
            return refilled(bucket, now: now).tokens >= 1
        }
    }

    /// Takes one unit of `client`'s budget, if it has one.
    public func take(_ client: ClientKey) -> Outcome {
        let now = clock()
        return lane(of: client).stripe.withLock { stripe -> Outcome in
            var bucket =
                stripe.buckets[client].map { refilled($0, now: now) } ?? Bucket(tokens: Double(burst), updated: now)
            guard bucket.tokens >= 1 else {
                stripe.buckets[client] = bucket
                return .refused(retryAfter: max(1, Int(((1 - bucket.tokens) / rate).rounded(.up))))
            }
            bucket.tokens -= 1
            if stripe.buckets[client] == nil, stripe.buckets.count >= perStripe { makeRoom(in: &stripe, now: now) }
            stripe.buckets[client] = bucket
            return .allowed
        }
    }

    /// Clients tracked now (tests).
    public var trackedClients: Int { lanes.reduce(0) { $0 + $1.stripe.withLock { $0.buckets.count } } }

    private func lane(of client: ClientKey) -> Lane {
        lanes[Int(UInt(bitPattern: client.hashValue) % UInt(lanes.count))]
    }

    /// The bucket refilled for the time since its last charge. `now` is read before the
    /// lock, so another thread may have charged the bucket at a later time meanwhile: that
    /// counts as no time passed (an unsigned difference would wrap and refill the burst).
    private func refilled(_ bucket: Bucket, now: UInt64) -> Bucket {
        guard now > bucket.updated else { return bucket }
        let elapsed = Double(now - bucket.updated) / 1_000_000_000
        return Bucket(tokens: min(Double(burst), bucket.tokens + elapsed * rate), updated: now)
    }

    /// Forgets the clients whose buckets are full again; if none are, the least recently
    /// charged half.
    private func makeRoom(in stripe: inout Stripe, now: UInt64) {
        let full = stripe.buckets.filter { refilled($0.value, now: now).tokens >= Double(burst) }.keys
        for key in full { stripe.buckets[key] = nil }
        guard stripe.buckets.count >= perStripe else { return }
        let oldest = stripe.buckets.sorted { $0.value.updated < $1.value.updated }.prefix(stripe.buckets.count / 2)
        for (key, _) in oldest { stripe.buckets[key] = nil }
    }

    /// Monotonic nanoseconds.
    @Sendable public static func now() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
