import Synchronization

/// A small, bounded, thread-safe memo for values that are expensive to build and
/// repeat across requests (a tab bar's template values for one arrangement, a static
/// content page). When full it starts over: the working set of a tab app is small
/// (arrangements × selections), so anything smarter would cost more than it saves.
final class RenderCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Key: Value]>([:])
    private let capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The cached value for `key`, building and storing it on a miss.
    func value(for key: Key, build: () -> Value) -> Value {
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = build()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }
}
