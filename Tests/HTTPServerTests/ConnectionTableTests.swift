// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerEngine

/// A loop's connections by descriptor: what is set is found, what is removed is gone, the
/// count follows, and descriptors far apart or never set read as none.
@Suite("Connection table")
struct ConnectionTableTests {
    func connection(_ descriptor: Int32) -> Connection {
        Connection(descriptor: descriptor, address: "127.0.0.1", counted: false, now: 0)
    }

    @Test("set, replaced, removed and counted, at descriptors near and far")
    func setAndRemove() {
        var table = ConnectionTable()
        #expect(table[0] == nil && table[-1] == nil && table[5_000] == nil && table.count == 0)
        let (a, b, c) = (connection(7), connection(3), connection(4_100))
        table[7] = a
        table[3] = b
        table[4_100] = c
        #expect(table[7] === a && table[3] === b && table[4_100] === c)
        #expect(table[4] == nil && table[8] == nil && table[4_101] == nil && table[1_000_000] == nil)
        #expect(table.count == 3)
        #expect(table.values.map(\.descriptor) == [3, 7, 4_100])
        let d = connection(7)
        table[7] = d
        #expect(table[7] === d && table.count == 3, "a descriptor reused replaces its slot")
        #expect(table.removeValue(forKey: 3) === b)
        #expect(table.removeValue(forKey: 3) == nil, "removed once")
        #expect(table.removeValue(forKey: 9_999) == nil)
        table[9_999] = nil
        #expect(table[3] == nil && table.count == 2)
        #expect(table.values.map(\.descriptor) == [7, 4_100])
        for connection in table.values { table[connection.descriptor] = nil }
        #expect(table.count == 0 && table.values.isEmpty)
    }
}
