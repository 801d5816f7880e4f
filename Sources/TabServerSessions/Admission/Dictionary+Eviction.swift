// SPDX-License-Identifier: Apache-2.0
extension Dictionary {
    /// Makes room for one more entry under `capacity` by dropping the least recently used:
    /// at least a sixteenth of `capacity` in one pass, so a full store or cache pays the
    /// sort once per many inserts rather than on each. Does nothing while there is room.
    /// Entries `isPinned` names are never dropped.
    package mutating func evictLeastRecentlyUsed(
        toFit capacity: Int, lastUsed: (Value) -> Int64, isPinned: (Key) -> Bool = { _ in false }
    ) {
        guard count >= capacity else { return }
        let batch = Swift.max(count - capacity + 1, capacity / 16, 1)
        let oldest = filter { !isPinned($0.key) }.map { (key: $0.key, lastUsed: lastUsed($0.value)) }
            .sorted { $0.lastUsed < $1.lastUsed }
        for entry in oldest.prefix(batch) { self[entry.key] = nil }
    }
}
