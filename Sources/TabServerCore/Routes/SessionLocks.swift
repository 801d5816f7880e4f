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
        stripe(of: cookie).mutex.withLock { _ in body() }
    }

    /// `body`'s result under the lock of `cookie` if it is free now; nil, without running
    /// `body`, when another request holds it (the caller must not wait: an engine thread).
    func withLockIfAvailable<Result>(for cookie: String, _ body: () -> Result) -> Result? {
        stripe(of: cookie).mutex.withLockIfAvailable { _ in body() }
    }

    /// The stripe of `cookie`; also how requests are spread over worker lanes.
    static func hash(_ cookie: String) -> Int {
        // FNV-1a over the cookie bytes: cheap, and the ids are random already.
        var hash: UInt32 = 2_166_136_261
        for byte in cookie.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        return Int(hash)
    }

    private func stripe(of cookie: String) -> Stripe {
        stripes[Self.hash(cookie) & (stripes.count - 1)]
    }
}
