// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import Testing

@Suite("SecureRandom")
struct SecureRandomTests {
    @Test("returns exactly the number of bytes asked for", arguments: [0, 1, 2, 15, 16, 17, 32, 1000, 65_536])
    func length(count: Int) {
        #expect(SecureRandom.bytes(count).count == count)
    }

    @Test("two calls give different bytes")
    func callsDiffer() {
        let first = SecureRandom.bytes(32)
        let second = SecureRandom.bytes(32)
        #expect(first != second)
        // 32 zero bytes would mean the buffer was never filled.
        #expect(first != [UInt8](repeating: 0, count: 32))
        #expect(second != [UInt8](repeating: 0, count: 32))
    }

    @Test("many 16-byte values are all distinct")
    func distinctValues() {
        var seen = Set<[UInt8]>()
        for _ in 0..<2_000 { seen.insert(SecureRandom.bytes(16)) }
        #expect(seen.count == 2_000)
    }

    @Test("a large buffer uses every byte value and is roughly uniform")
    func distribution() {
        // 256 KiB: each value is expected 1024 times; missing one entirely, or one value
        // taking a tenth of the buffer, is astronomically unlikely for a working CSPRNG.
        let bytes = SecureRandom.bytes(256 * 1024)
        var counts = [Int](repeating: 0, count: 256)
        for byte in bytes { counts[Int(byte)] += 1 }
        #expect(counts.allSatisfy { $0 > 700 && $0 < 1400 })
    }

    @Test("the tail of a buffer is filled too")
    func tailFilled() {
        // If only a prefix were written, the last bytes of many buffers would all be zero.
        var tailsAllZero = true
        for _ in 0..<16 where SecureRandom.bytes(4099).suffix(8).contains(where: { $0 != 0 }) {
            tailsAllZero = false
        }
        #expect(!tailsAllZero)
    }
}
