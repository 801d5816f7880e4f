// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Serializes the requests of one session inside this process: a double tap, two
/// windows or a prefetch no longer race to write the same session, so they never lose
/// a compare-and-set to each other and never re-run their handler. (Writes from other
/// instances sharing a store can still conflict; the app retries those.)
///
/// Locks are striped by the cookie's bytes: two visitors share a stripe rarely, and
/// then only wait for each other's (short) request. Nothing is allocated per session.
final class SessionLocks: Sendable {
    private final class Stripe: Sendable {
        let mutex = Mutex<Void>(())
    }

    private let stripes: [Stripe]

    /// `count` stripes (rounded up to a power of two).
    init(count: Int = 256) {
        var size = 1
        while size < count { size <<= 1 }
        stripes = (0..<size).map { _ in Stripe() }
    }

    /// Runs `body` holding the lock for the session named by `cookie` (its raw value).
    func withLock<Result>(for cookie: String, _ body: () -> Result) -> Result {
        // FNV-1a over the cookie bytes: cheap, and the ids are random already.
        var hash: UInt32 = 2_166_136_261
        for byte in cookie.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let stripe = stripes[Int(hash) & (stripes.count - 1)]
        return stripe.mutex.withLock { _ in body() }
    }
}
