import Synchronization

/// A count that only grows, shared by every engine thread: one relaxed atomic add per
/// event, no lock, no allocation.
final class MetricCounter: Sendable {
    private let storage = Atomic<UInt64>(0)

    init() {}

    /// Adds `amount`.
    @inline(__always)
    func increment(by amount: UInt64 = 1) { storage.add(amount, ordering: .relaxed) }

    /// The count so far.
    var value: UInt64 { storage.load(ordering: .relaxed) }
}
