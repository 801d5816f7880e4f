// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerGzip
import Testing

@Suite("Gzip")
struct GzipTests {
    static let text = Array(
        String(repeating: "The quick brown fox jumps over the lazy dog. Tab bars at the bottom. ", count: 200).utf8)

    @Test("text round-trips and compresses")
    func roundTripText() throws {
        let packed = try Gzip.compress(Self.text)
        #expect(packed.count < Self.text.count / 4)
        #expect(try Gzip.decompress(packed) == Self.text)
    }

    @Test("empty input round-trips")
    func roundTripEmpty() throws {
        let packed = try Gzip.compress([])
        #expect(packed.count >= 18)  // 10-byte header + empty deflate block + 8-byte trailer
        #expect(try Gzip.decompress(packed) == [])
    }

    @Test("random (incompressible) bytes round-trip", arguments: [1, 255, 16_384, 16_385, 100_000])
    func roundTripRandom(count: Int) throws {
        let bytes = SecureRandom.bytes(count)
        #expect(try Gzip.decompress(Gzip.compress(bytes)) == bytes)
    }

    @Test("every level round-trips", arguments: Array(Int32(1)...9))
    func levels(level: Int32) throws {
        #expect(try Gzip.decompress(Gzip.compress(Self.text, level: level)) == Self.text)
    }

    @Test("an invalid level throws instead of producing output")
    func invalidLevel() {
        #expect(throws: Gzip.Failure.self) { try Gzip.compress(Self.text, level: 42) }
    }

    @Test("output is a gzip member: magic 1f 8b, method 8 (deflate)")
    func gzipHeader() throws {
        for input in [[], Self.text, SecureRandom.bytes(100)] {
            let packed = try Gzip.compress(input)
            #expect(Array(packed.prefix(3)) == [0x1f, 0x8b, 0x08])
        }
    }

    @Test("the trailer holds the input size (ISIZE, little-endian)")
    func gzipTrailerSize() throws {
        let packed = try Gzip.compress(Self.text)
        let trailer = packed.suffix(4).reversed().reduce(0) { $0 << 8 | Int($1) }
        #expect(trailer == Self.text.count)
    }

    @Test(
        "garbage does not decompress",
        arguments: [
            [], [0x00], [0x1f, 0x8b], Array("hello, not gzip at all".utf8),
            [0x1f, 0x8b, 0x08, 0x00, 0xde, 0xad, 0xbe, 0xef, 0x00, 0xff, 0xff, 0xff, 0xff],
        ] as [[UInt8]])
    func garbageThrows(bytes: [UInt8]) {
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(bytes) }
    }

    @Test("truncated input throws")
    func truncatedThrows() throws {
        let packed = try Gzip.compress(Self.text)
        for cut in [1, 4, 8, packed.count / 2, packed.count - 11] {
            #expect(throws: Gzip.Failure.self) { try Gzip.decompress(Array(packed.dropLast(cut))) }
        }
    }

    @Test("a corrupted CRC is detected")
    func corruptCRC() throws {
        var packed = try Gzip.compress(Self.text)
        packed[packed.count - 8] ^= 0xff
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed) }
    }

    @Test("decompress honours the output limit")
    func limit() throws {
        let zeros = [UInt8](repeating: 0, count: 100_000)
        let packed = try Gzip.compress(zeros)
        #expect(packed.count < 1_000)  // a small bomb
        #expect(try Gzip.decompress(packed, limit: 100_000) == zeros)
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed, limit: 99_999) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed, limit: 1_000) }
        #expect(throws: Gzip.Failure.self) { try Gzip.decompress(packed, limit: 0) }
        #expect(try Gzip.decompress(Gzip.compress([]), limit: 0) == [])
    }

    @Test("a failure describes the zlib operation and code")
    func failureDescription() {
        do {
            _ = try Gzip.decompress(Array("nope".utf8))
            Issue.record("expected a failure")
        } catch {
            #expect(error.description.contains("inflate"))
            #expect(error.description.contains("\(error.code)"))
            #expect(error.code != 0)
        }
    }
}
