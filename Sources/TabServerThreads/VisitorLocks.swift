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
///
/// A freed lock is not handed to the first waiter while that waiter is still suspended
/// (its loop may be busy with a batch of other connections, and every request of the
/// visitor meanwhile would queue behind a lock nobody runs under): it is freed, the first
/// waiter is woken, and whoever comes first takes it. A waiter that loses that race once
/// goes back to the head of the line and is handed the lock at the next release, so
/// nobody waits behind more than one newcomer.
package final class VisitorLocks: Sendable {
    private struct Waiter {
        /// Resumed with true when the lock is handed over, false when it was freed for
        /// whoever takes it first.
        let continuation: UnsafeContinuation<Bool, Never>
        /// It lost a race for the freed lock once: the next release hands it over.
        let lostOnce: Bool
    }

    private struct Holder {
        /// Someone holds the lock (false: freed, a woken waiter on its way).
        var locked = true
        /// Tasks waiting, in the order they came (one that lost a race first).
        var waiting: [Waiter] = []
    }

    private final class Stripe: Sendable {
        let held = Mutex<[PrehashedKey: Holder]>([:])
    }

    private let stripes: [Stripe] = (0..<16).map { _ in Stripe() }

    package init() {}

    /// Runs `body` holding the lock of `key`.
    package nonisolated(nonsending) func withLock<Result: Sendable>(
        _ key: Int, _ body: nonisolated(nonsending) () async -> Result
    ) async -> Result {
        await acquire(key)
        let result = await body()
        release(key)
        return result
    }

    private func stripe(_ key: PrehashedKey) -> Stripe {
        stripes[Int(UInt(bitPattern: key.value) % UInt(stripes.count))]
    }

    /// Takes the lock when it is free and nobody is owed it.
    private static func take(_ held: inout [PrehashedKey: Holder], _ key: PrehashedKey) -> Bool {
        guard let holder = held[key] else {
            held[key] = Holder()
            return true
        }
        guard !holder.locked, holder.waiting.first?.lostOnce != true else { return false }
        held[key]!.locked = true
        return true
    }

    private nonisolated(nonsending) func acquire(_ key: Int) async {
        let key = PrehashedKey(key)
        let stripe = stripe(key)
        if stripe.held.withLock({ held in Self.take(&held, key) }) { return }
        var lost = false
        while true {
            let lostBefore = lost
            let handedOver = await withUnsafeContinuation { (continuation: UnsafeContinuation<Bool, Never>) in
                let taken = stripe.held.withLock { held -> Bool in
                    if Self.take(&held, key) { return true }
                    let waiter = Waiter(continuation: continuation, lostOnce: lostBefore)
                    if lostBefore {
                        held[key]!.waiting.insert(waiter, at: 0)
                    } else {
                        held[key]!.waiting.append(waiter)
                    }
                    return false
                }
                if taken { continuation.resume(returning: true) }
            }
            if handedOver { return }
            // Woken with the lock freed: take it unless a newcomer was first.
            if stripe.held.withLock({ held in Self.take(&held, key) }) { return }
            lost = true
        }
    }

    /// Hands the lock to a waiter that lost a race before, else frees it and wakes the
    /// first waiter; with nobody waiting, forgets the key.
    private func release(_ key: Int) {
        let key = PrehashedKey(key)
        let (next, handedOver) = stripe(key).held.withLock {
            held -> (UnsafeContinuation<Bool, Never>?, Bool) in
            guard held[key] != nil, !held[key]!.waiting.isEmpty else {
                held[key] = nil
                return (nil, false)
            }
            let waiter = held[key]!.waiting.removeFirst()
            if waiter.lostOnce { return (waiter.continuation, true) }
            held[key]!.locked = false
            return (waiter.continuation, false)
        }
        next?.resume(returning: handedOver)
    }

    /// The key of a cookie's value (FNV-1a over its bytes: cheap, and the ids are random).
    /// The bytes are read in place: `utf8` iteration goes through String's index machinery
    /// for each byte, and every request with a session cookie hashes its value.
    package static func key(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return Int(truncatingIfNeeded: hash)
        }
    }
}
