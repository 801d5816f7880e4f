// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerSessions
import Testing

@Suite("SessionID")
struct SessionIDTests {
    static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    @Test("a generated id is 22 base64url characters and parses back to itself")
    func generateRoundTrip() throws {
        for _ in 0..<100 {
            let id = SessionID.generate()
            #expect(id.text.count == 22)
            #expect(id.text.utf8.count == 22)
            #expect(id.text.allSatisfy { Self.alphabet.contains($0) })
            let parsed = try #require(SessionID(cookieValue: id.text))
            #expect(parsed == id)
            #expect(parsed.text == id.text)
            #expect(SessionID(cookieValue: Substring(id.text)) == id)
            #expect(id.bytes.count == 16)
            #expect(SessionID(bytes: id.bytes) == id)
            #expect(Base64URL.decode(id.text) == id.bytes)
        }
    }

    @Test("10,000 generated ids are unique")
    func unique() {
        var ids = Set<SessionID>()
        var texts = Set<String>()
        for _ in 0..<10_000 {
            let id = SessionID.generate()
            ids.insert(id)
            texts.insert(id.text)
        }
        #expect(ids.count == 10_000)
        #expect(texts.count == 10_000)
    }

    @Test("bytes are kept in order (big-endian) and encode as plain base64url")
    func knownBytes() throws {
        let counting = (0..<16).map { UInt8($0) }
        let id = try #require(SessionID(bytes: counting))
        #expect(id.bytes == counting)
        #expect(id.text == Base64URL.encode(counting))
        #expect(try #require(SessionID(bytes: [UInt8](repeating: 0, count: 16))).text == "AAAAAAAAAAAAAAAAAAAAAA")
        #expect(try #require(SessionID(bytes: [UInt8](repeating: 0xff, count: 16))).text == "_____________________w")
        #expect(SessionID(cookieValue: "_____________________w")?.bytes == [UInt8](repeating: 0xff, count: 16))
    }

    @Test("only exactly 16 bytes make an id", arguments: [0, 1, 15, 17, 32])
    func wrongByteCount(count: Int) {
        #expect(SessionID(bytes: [UInt8](repeating: 7, count: count)) == nil)
    }

    @Test("forged, truncated, over-long, padded, non-ASCII and empty values are refused")
    func refused() {
        let text = SessionID.generate().text
        var candidates: [String] = [
            "", "forged", "null", "undefined", String(text.dropLast()), String(text.dropLast(2)), text + "A",
            text + text, String(text.prefix(20)) + "==", String(text.dropLast()) + "=", " " + String(text.dropLast()),
            String(text.dropLast()) + " ", String(text.dropLast()) + "\n", String(text.prefix(21)) + "\0",
            String(repeating: "A", count: 21), String(repeating: "A", count: 23), String(repeating: "A", count: 24),
            String(text.prefix(20)) + "é",  // 22 UTF-8 bytes, but not ASCII
            "ÄÄÄÄÄÄÄÄÄÄÄ",  // 22 UTF-8 bytes
            String(text.prefix(18)) + "🙂",  // 22 UTF-8 bytes
        ]
        // Standard base64 characters instead of the URL alphabet.
        candidates.append("+" + text.dropFirst())
        candidates.append("/" + text.dropFirst())
        for candidate in candidates {
            #expect(SessionID(cookieValue: candidate) == nil, "\(candidate.debugDescription)")
        }
    }

    @Test("21 and 23 characters are refused even when they are valid base64url")
    func neighbouringLengths() {
        let text = SessionID.generate().text
        let twentyOne = String(text.prefix(21))
        let twentyThree = Base64URL.encode(SecureRandom.bytes(17))
        #expect(twentyThree.count == 23)
        #expect(Base64URL.decode(twentyThree) != nil)
        #expect(SessionID(cookieValue: twentyOne) == nil)
        #expect(SessionID(cookieValue: twentyThree) == nil)
    }

    @Test("an id has exactly one spelling: other trailing bits are refused")
    func oneSpelling() {
        let text = SessionID.generate().text
        // The last character carries 2 data bits and 4 zero bits, so of the 64 letters
        // only 4 are possible there.
        let stem = text.dropLast()
        let accepted = Self.alphabet.filter { SessionID(cookieValue: stem + String($0)) != nil }
        #expect(accepted.count == 4)
        #expect(accepted.contains(text.last!))
    }

    @Test("description shows only a short prefix, never the whole id")
    func description() {
        let id = SessionID.generate()
        let shown = "\(id)"
        #expect(!shown.contains(id.text))
        #expect(shown.count < 12)
        #expect(!String(describing: id).contains(id.text))
        #expect(!shown.isEmpty)
    }

    @Test("constantTimeEquals agrees with ==")
    func constantTimeEquals() throws {
        let id = SessionID.generate()
        let copy = try #require(SessionID(cookieValue: id.text))
        #expect(id.constantTimeEquals(copy))
        #expect(id.constantTimeEquals(id))
        for index in [0, 7, 8, 15] {
            var bytes = id.bytes
            bytes[index] ^= 0x01
            let other = try #require(SessionID(bytes: bytes))
            #expect(!id.constantTimeEquals(other), "differs in byte \(index)")
            #expect(!other.constantTimeEquals(id))
            #expect(other != id)
        }
        #expect(!id.constantTimeEquals(SessionID.generate()))
    }

    @Test("a dictionary's hash of an id: equal ids agree, the seed changes it, ids a few bits apart spread")
    func rawHash() throws {
        let id = SessionID.generate()
        let parsed = try #require(SessionID(cookieValue: id.text))
        #expect(parsed._rawHashValue(seed: 42) == id._rawHashValue(seed: 42))
        #expect(id._rawHashValue(seed: 42) != id._rawHashValue(seed: 43))
        // Ids counting up in either word (as no generated id does, the worst case for a
        // hash that only folds the bits): the low 16 bits of their hashes (a table of
        // 65,536 buckets) take about as many values as a random function's would, 63 %.
        let counting: [(UInt64) -> SessionID] = [
            { SessionID(high: 0, low: $0) }, { SessionID(high: $0 << 40, low: 7) },
        ]
        for sequential in counting {
            var buckets = Set<Int>()
            for index in UInt64(0)..<65_536 { buckets.insert(sequential(index)._rawHashValue(seed: 1) & 0xFFFF) }
            #expect(buckets.count > 39_000, "\(buckets.count) of 65,536 buckets")
        }
        var table: [SessionID: Int] = [:]
        for index in 0..<100_000 { table[SessionID(high: UInt64(index), low: 0)] = index }
        #expect(table.count == 100_000)
        #expect((0..<100_000).allSatisfy { table[SessionID(high: UInt64($0), low: 0)] == $0 })
    }
}
