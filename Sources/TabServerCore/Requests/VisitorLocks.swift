// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// One visitor's requests run one at a time in this process: a double tap, two windows or
/// a prefetch no longer race to write the same session, so they never lose a
/// compare-and-set to each other and never run their handler twice. (Writes from other
/// instances sharing a store can still conflict; the request then runs again.) The lock
/// is held up to the write in this process's copy, not through a group commit: the next
/// request reads that copy, and each answer still waits for its own write to be durable.
/// A request that finds its visitor busy waits as a suspended task, never as a blocked
/// thread.
///
/// Keys are hashes of the cookie (or the signed-in user): two visitors wait for each
/// other only when their hashes collide.
final class VisitorLocks: Sendable {
    private struct Holder {
        /// Tasks waiting, in the order they came.
        var waiting: [UnsafeContinuation<Void, Never>] = []
    }

    private final class Stripe: Sendable {
        let held = Mutex<[Int: Holder]>([:])
    }

    private let stripes: [Stripe] = (0..<16).map { _ in Stripe() }

    /// Runs `body` holding the lock of `key`.
    func withLock<Result: Sendable>(_ key: Int, _ body: () async -> Result) async -> Result {
        await acquire(key)
        let result = await body()
        release(key)
        return result
    }

    private func stripe(_ key: Int) -> Stripe { stripes[Int(UInt(bitPattern: key) % UInt(stripes.count))] }

    private func acquire(_ key: Int) async {
        let stripe = stripe(key)
        let free = stripe.held.withLock { held -> Bool in
            guard held[key] == nil else { return false }
            held[key] = Holder()
            return true
        }
        if free { return }
        await withUnsafeContinuation { continuation in
            let handedOver = stripe.held.withLock { held -> Bool in
                if held[key] == nil {
                    held[key] = Holder()
                    return true
                }
                held[key]!.waiting.append(continuation)
                return false
            }
            if handedOver { continuation.resume() }
        }
    }

    /// Hands the lock to the next waiter, or frees it.
    private func release(_ key: Int) {
        let next = stripe(key).held.withLock { held -> UnsafeContinuation<Void, Never>? in
            guard var holder = held[key], !holder.waiting.isEmpty else {
                held[key] = nil
                return nil
            }
            let next = holder.waiting.removeFirst()
            held[key] = holder
            return next
        }
        next?.resume()
    }

    /// The key of a cookie's value (FNV-1a over its bytes: cheap, and the ids are random).
    static func key(_ text: String) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash)
    }
}
