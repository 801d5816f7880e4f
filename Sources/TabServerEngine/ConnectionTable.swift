// SPDX-License-Identifier: Apache-2.0
/// A loop's open connections by descriptor: a slot per descriptor number, since the kernel
/// hands out the lowest free ones. A look-up is an index, with no hash of the descriptor
/// to compute as in a dictionary: the loop looks a connection up three times a request.
struct ConnectionTable {
    private var slots: [Connection?] = []
    /// Connections held.
    private(set) var count = 0

    /// The connection on `descriptor`, if this loop holds one; setting nil removes it.
    subscript(descriptor: Int32) -> Connection? {
        get {
            let index = Int(descriptor)
            return index >= 0 && index < slots.count ? slots[index] : nil
        }
        set {
            let index = Int(descriptor)
            precondition(index >= 0, "a connection's descriptor is never negative")
            if index >= slots.count {
                guard newValue != nil else { return }
                slots.append(contentsOf: repeatElement(nil, count: max(index + 1, slots.count * 2) - slots.count))
            }
            count += (newValue != nil ? 1 : 0) - (slots[index] != nil ? 1 : 0)
            slots[index] = newValue
        }
    }

    /// Removes the connection on `descriptor`; the one removed, nil when there was none.
    mutating func removeValue(forKey descriptor: Int32) -> Connection? {
        guard let connection = self[descriptor] else { return nil }
        self[descriptor] = nil
        return connection
    }

    /// The connections held, in descriptor order (a copy: closing one while going through
    /// them is safe).
    var values: [Connection] { slots.compactMap { $0 } }
}
