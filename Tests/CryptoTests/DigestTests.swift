// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import Testing

@Suite("Digest")
struct DigestTests {
    /// Bytes from a hex string written in a test (spaces allowed for readability).
    static func hex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.filter { $0 != UInt8(ascii: " ") })
        precondition(digits.count % 2 == 0, "odd number of hex digits")
        func value(_ digit: UInt8) -> UInt8 {
            switch digit {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
            default: preconditionFailure("not a lowercase hex digit")
            }
        }
        return stride(from: 0, to: digits.count, by: 2).map { value(digits[$0]) << 4 | value(digits[$0 + 1]) }
    }

    // MARK: SHA-256 (FIPS 180-2 appendix B and the well-known empty-input digest)

    @Test(
        "SHA-256 matches published test vectors",
        arguments: [
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
        ])
    func sha256Vectors(message: String, expected: String) {
        #expect(Digest.sha256(Array(message.utf8)) == Self.hex(expected))
    }

    @Test("SHA-256 of one million 'a' (FIPS 180-2 B.3)")
    func sha256Million() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(
            Digest.sha256(message)
                == Self.hex("cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"))
    }

    @Test("SHA-256 always gives 32 bytes and reacts to a single changed bit")
    func sha256Avalanche() {
        var message = Array("TabServer".utf8)
        let first = Digest.sha256(message)
        message[0] ^= 1
        let second = Digest.sha256(message)
        #expect(first.count == 32)
        #expect(second.count == 32)
        #expect(first != second)
    }
}
