// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A fixed number of counters that only grow, in one allocation, shared by every engine
/// thread. Counting is one relaxed atomic add: no lock, no allocation, and no reference
/// counting of per-counter objects on the hot path.
///
/// `@unchecked Sendable` is safe: the memory is allocated and initialized in `init`, only
/// ever touched through the atomics' own operations, and freed in `deinit`, after the
/// last reference is gone.
final class CounterBlock: @unchecked Sendable {
    private let base: UnsafeMutablePointer<Atomic<UInt64>>
    /// How many counters there are.
    let count: Int

    /// `count` counters at zero.
    init(count: Int) {
        self.count = count
        base = .allocate(capacity: count)
        for index in 0..<count { (base + index).initialize(to: Atomic(0)) }
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    /// Adds `amount` to counter `index`.
    @inline(__always)
    func increment(_ index: Int, by amount: UInt64 = 1) {
        precondition(index >= 0 && index < count)
        base[index].add(amount, ordering: .relaxed)
    }

    /// Counter `index` so far.
    func value(_ index: Int) -> UInt64 { base[index].load(ordering: .relaxed) }
}
