// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel

/// A small, bounded, thread-safe memo for values that are expensive to build and
/// repeat across requests (a tab bar's template values for one arrangement, a static
/// content page). When full it starts over: the working set of a tab app is small
/// (arrangements × selections), so anything smarter would cost more than it saves.
///
/// ```swift
/// let pages = RenderCache<String, TabPage?>(capacity: 256)
/// let page = pages.value(for: "notes/3") { buildPage(3) }
/// ```
public final class RenderCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private let entries = Mutex<[Key: Value]>([:])
    private let capacity: Int

    /// A cache that holds at most `capacity` entries.
    public init(capacity: Int) {
        self.capacity = capacity
    }

    /// The cached value for `key`, building and storing it on a miss.
    public func value(for key: Key, build: () -> Value) -> Value {
        if let hit = entries.withLock({ $0[key] }) { return hit }
        let value = build()
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeAll(keepingCapacity: true) }
            entries[key] = value
        }
        return value
    }
}
