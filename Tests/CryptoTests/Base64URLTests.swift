// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// A deliberately naive encoder, bit by bit, to check the real one against.
    static func referenceEncode(_ bytes: [UInt8]) -> String {
        var bits: [Bool] = []
        for byte in bytes {
            for shift in (0..<8).reversed() { bits.append(byte >> UInt8(shift) & 1 == 1) }
        }
        while bits.count % 6 != 0 { bits.append(false) }
        var text = ""
        for start in stride(from: 0, to: bits.count, by: 6) {
            var value = 0
            for bit in bits[start..<start + 6] { value = value << 1 | (bit ? 1 : 0) }
            text.append(alphabet[value])
        }
        return text
    }

    @Test("RFC 4648 test vectors, without padding")
    func rfcVectors() {
        let vectors: [(String, String)] = [
            ("", ""), ("f", "Zg"), ("fo", "Zm8"), ("foo", "Zm9v"), ("foob", "Zm9vYg"),
            ("fooba", "Zm9vYmE"), ("foobar", "Zm9vYmFy"),
        ]
        for (plain, encoded) in vectors {
            #expect(Base64URL.encode(Array(plain.utf8)) == encoded)
            #expect(Base64URL.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test("uses '-' and '_' where standard base64 uses '+' and '/'")
    func urlAlphabet() {
        #expect(Base64URL.encode([0xfb, 0xff]) == "-_8")
        #expect(Base64URL.encode([0xff, 0xff, 0xff]) == "____")
        #expect(Base64URL.encode([0xfb, 0xef, 0xbe]) == "----")
        #expect(Base64URL.decode("-_8") == [0xfb, 0xff])
        #expect(Base64URL.decode("____") == [0xff, 0xff, 0xff])
    }

    @Test("random bytes round-trip and match the reference encoder", arguments: 0...40)
    func roundTrip(length: Int) throws {
        for _ in 0..<8 {
            let bytes = SecureRandom.bytes(length)
            let text = Base64URL.encode(bytes)
            #expect(text == Self.referenceEncode(bytes))
            #expect(text.utf8.count == (length * 4 + 2) / 3)
            #expect(!text.contains("=") && !text.contains("+") && !text.contains("/"))
            let decoded = try #require(Base64URL.decode(text))
            #expect(decoded == bytes)
            // Substrings decode too (the parameter is `some StringProtocol`).
            #expect(Base64URL.decode(Substring("x" + text).dropFirst()) == bytes)
        }
    }

    @Test(
        "rejects padding, the standard alphabet, whitespace and other stray characters",
        arguments: [
            "Zg==", "Zm8=", "Zm9vYg==", "+/8", "-/8", "+_8", "Zm8\n", " Zm8", "Z m8", "Zm8.", "Zm8!", "Zg\0", "Zm8\t",
        ])
    func rejectsForeignCharacters(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("rejects impossible lengths (length % 4 == 1)", arguments: ["A", "AAAAA", "Zm9vY", "AAAAAAAAA"])
    func rejectsImpossibleLength(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test(
        "rejects non-zero trailing bits so each value has one spelling",
        arguments: ["Zh", "Zm9", "Zm9vYh", "AB", "AAB", "_-"])
    func rejectsTrailingBits(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("rejects non-ASCII input", arguments: ["Zmé", "Zm9vÿ", "ÄÄÄÄ", "Zm8\u{FF0B}", "🙂🙂"])
    func rejectsNonASCII(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("every single byte has exactly one two-character spelling")
    func twoCharacterSpellings() {
        var decodedBytes: [UInt8] = []
        var accepted = 0
        for first in Self.alphabet {
            for second in Self.alphabet {
                guard let bytes = Base64URL.decode(String([first, second])) else { continue }
                accepted += 1
                #expect(bytes.count == 1)
                decodedBytes.append(contentsOf: bytes)
            }
        }
        #expect(accepted == 256)
        #expect(Set(decodedBytes).count == 256)
    }

    @Test("the empty string decodes to no bytes")
    func empty() {
        #expect(Base64URL.decode("") == [])
        #expect(Base64URL.encode([]) == "")
    }

    @Test("decode128 reads 22 characters as decode does, into two words, and refuses what decode refuses")
    func decode128() {
        for _ in 0..<200 {
            let bytes = SecureRandom.bytes(16)
            let text = Base64URL.encode(bytes)
            let words = Base64URL.decode128(text)
            var high: UInt64 = 0
            var low: UInt64 = 0
            for index in 0..<8 {
                high = high << 8 | UInt64(bytes[index])
                low = low << 8 | UInt64(bytes[index + 8])
            }
            #expect(words?.high == high)
            #expect(words?.low == low)
        }
        let valid = Base64URL.encode(SecureRandom.bytes(16))
        #expect(Base64URL.decode128(String(valid.dropLast())) == nil)
        #expect(Base64URL.decode128(valid + "A") == nil)
        #expect(Base64URL.decode128(String(valid.dropLast()) + "=") == nil)
        // The last character carries 2 bits of data and 4 that must be zero: "B" sets one of them.
        #expect(Base64URL.decode128(String(valid.dropLast()) + "B") == nil)
        #expect(Base64URL.decode(String(valid.dropLast()) + "B") == nil)
        #expect(Base64URL.decode128(String(valid.dropLast()) + "Q") != nil)
    }

    @Test("decode128 agrees with decode on random 22-character texts, valid or not")
    func decode128AgreesWithDecode() {
        let characters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_+/=.é")
        var refused = 0
        for round in 0..<2_000 {
            // The alphabet; every fourth text gets one character from outside it.
            var text = String((0..<22).map { _ in characters[Int.random(in: 0..<64)] })
            // Half the texts end in a character whose four spare bits are zero.
            if round % 2 == 1 { text = String(text.dropLast()) + String("AQgw".randomElement()!) }
            if round % 4 == 0 {
                let at = text.index(text.startIndex, offsetBy: Int.random(in: 0..<22))
                text.replaceSubrange(at...at, with: String(characters[Int.random(in: 64..<characters.count)]))
            }
            let words = Base64URL.decode128(text)
            guard let bytes = Base64URL.decode(text), bytes.count == 16 else {
                #expect(words == nil, "\(text)")
                refused += 1
                continue
            }
            var high: UInt64 = 0
            var low: UInt64 = 0
            for index in 0..<8 {
                high = high << 8 | UInt64(bytes[index])
                low = low << 8 | UInt64(bytes[index + 8])
            }
            #expect(words?.high == high, "\(text)")
            #expect(words?.low == low, "\(text)")
        }
        #expect(refused > 100)
        #expect(refused < 1_900)
    }
}
