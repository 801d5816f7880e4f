// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Hosts whose last message ran out of time: each is given no other message until its
/// back-off has passed, so a push service that answers slowly (or an endpoint whose
/// owner makes it so) holds a delivery lane for one deadline, not for every message queued
/// behind it. The back-off starts at `first` and doubles with each further timeout, up to
/// `longest`; a message that gets an answer ends it. At most `capacity` hosts are
/// remembered (past it, those whose back-off ended, then the oldest, are forgotten).
final class HostBackoff: Sendable {
    private struct Entry {
        var until: ContinuousClock.Instant
        var next: Duration
    }

    private let hosts = Mutex<[String: Entry]>([:])
    private let first: Duration
    private let longest: Duration
    private let capacity: Int

    init(first: Duration = .seconds(30), longest: Duration = .seconds(3_600), capacity: Int = 4_096) {
        self.first = first
        self.longest = longest
        self.capacity = capacity
    }

    /// Whether `host` is backed off at `now`.
    func isBackedOff(_ host: String, now: ContinuousClock.Instant = .now) -> Bool {
        hosts.withLock { $0[host].map { now < $0.until } ?? false }
    }

    /// Backs `host` off after a timeout: for `first`, or twice its last back-off.
    func timedOut(_ host: String, now: ContinuousClock.Instant = .now) {
        hosts.withLock { hosts in
            let wait = hosts[host]?.next ?? first
            hosts[host] = Entry(until: now + wait, next: min(wait * 2, longest))
            guard hosts.count > capacity else { return }
            hosts = hosts.filter { now < $0.value.until }
            while hosts.count > capacity, let oldest = hosts.min(by: { $0.value.until < $1.value.until }) {
                hosts[oldest.key] = nil
            }
        }
    }

    /// Ends `host`'s back-off: it answered.
    func answered(_ host: String) {
        hosts.withLock { hosts in if hosts[host] != nil { hosts[host] = nil } }
    }
}
