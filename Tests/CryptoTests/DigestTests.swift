import Crypto
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

    // MARK: HMAC-SHA-256 (RFC 4231)

    @Test("HMAC-SHA-256 RFC 4231 test case 1")
    func hmacCase1() {
        let key = [UInt8](repeating: 0x0b, count: 20)
        #expect(
            Digest.hmacSHA256(key: key, message: Array("Hi There".utf8))
                == Self.hex("b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"))
    }

    @Test("HMAC-SHA-256 RFC 4231 test case 2 (key shorter than the output)")
    func hmacCase2() {
        #expect(
            Digest.hmacSHA256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
                == Self.hex("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"))
    }

    @Test("HMAC-SHA-256 RFC 4231 test case 6 (key longer than the block size)")
    func hmacCase6() {
        let key = [UInt8](repeating: 0xaa, count: 131)
        let message = Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8)
        #expect(
            Digest.hmacSHA256(key: key, message: message)
                == Self.hex("60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"))
    }

    @Test("HMAC-SHA-256 with an empty key and an empty message")
    func hmacEmpty() {
        // A widely published value; an implementation that silently fails on an empty
        // key would return 32 zero bytes instead.
        #expect(
            Digest.hmacSHA256(key: [], message: [])
                == Self.hex("b613679a0814d9ec772f95d778c35fc5ff1697c493715653c6c712144292c5ad"))
    }

    @Test("HMAC depends on the key and on the message")
    func hmacKeyAndMessage() {
        let message = Array("session-id".utf8)
        let tag = Digest.hmacSHA256(key: Array("secret-1".utf8), message: message)
        #expect(tag.count == 32)
        #expect(tag == Digest.hmacSHA256(key: Array("secret-1".utf8), message: message))
        #expect(tag != Digest.hmacSHA256(key: Array("secret-2".utf8), message: message))
        #expect(tag != Digest.hmacSHA256(key: Array("secret-1".utf8), message: Array("session-iD".utf8)))
        #expect(tag != Digest.sha256(message))
    }

    // MARK: constantTimeEquals

    @Test("constantTimeEquals is true exactly for equal byte arrays")
    func constantTimeEquals() {
        let a: [UInt8] = [1, 2, 3, 4, 5, 6, 7, 8]
        #expect(Digest.constantTimeEquals(a, a))
        #expect(Digest.constantTimeEquals(a, Array(a)))
        #expect(Digest.constantTimeEquals([], []))

        var firstDiffers = a
        firstDiffers[0] ^= 0x80
        var lastDiffers = a
        lastDiffers[7] ^= 0x01
        #expect(!Digest.constantTimeEquals(a, firstDiffers))
        #expect(!Digest.constantTimeEquals(a, lastDiffers))
        #expect(!Digest.constantTimeEquals(lastDiffers, a))
    }

    @Test("constantTimeEquals treats different lengths as unequal, prefixes included")
    func constantTimeEqualsLengths() {
        let a: [UInt8] = [9, 8, 7, 6]
        #expect(!Digest.constantTimeEquals(a, Array(a.prefix(3))))
        #expect(!Digest.constantTimeEquals(Array(a.prefix(3)), a))
        #expect(!Digest.constantTimeEquals([], a))
        #expect(!Digest.constantTimeEquals(a, []))
        #expect(!Digest.constantTimeEquals(a, a + [0]))
    }

    @Test("constantTimeEquals agrees with == on digests")
    func constantTimeEqualsDigests() {
        let x = Digest.sha256(Array("x".utf8))
        let y = Digest.sha256(Array("y".utf8))
        #expect(Digest.constantTimeEquals(x, Digest.sha256(Array("x".utf8))))
        #expect(!Digest.constantTimeEquals(x, y))
    }
}
