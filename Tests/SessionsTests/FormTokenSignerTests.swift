// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerSessions
import Testing

@Suite("Signed form tokens for visitors without a stored session")
struct FormTokenSignerTests {
    let now: Int64 = 1_800_000_000

    @Test("a token is valid for its key within maxAge, and only for its key")
    func validity() {
        let signer = FormTokenSigner(secret: Array("a secret shared by every instance!".utf8))
        let token = signer.token(now: now)
        #expect(token == signer.token(now: now + 1), "the same within the hour: pages stay cacheable")
        #expect(signer.isValid(token, now: now, maxAge: 86_400))
        #expect(
            FormTokenSigner(secret: Array("a secret shared by every instance!".utf8)).isValid(
                token, now: now, maxAge: 86_400))
        #expect(
            !FormTokenSigner(secret: Array("another secret entirely, 32 chars".utf8)).isValid(
                token, now: now, maxAge: 86_400))
        #expect(!FormTokenSigner.random().isValid(token, now: now, maxAge: 86_400))
        #expect(signer.isValid(token, now: now + 86_000, maxAge: 86_400))
        #expect(!signer.isValid(token, now: now + 90_000, maxAge: 86_400), "too old")
        #expect(!signer.isValid(signer.token(now: now + 10_000), now: now, maxAge: 86_400), "from the future")
    }

    @Test("any changed bit is refused")
    func tampering() {
        let signer = FormTokenSigner.random()
        let bytes = signer.token(now: now).bytes
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            #expect(!signer.isValid(SessionID(bytes: changed)!, now: now, maxAge: 86_400), "byte \(index)")
        }
        #expect(!signer.isValid(.generate(), now: now, maxAge: 86_400))
    }

    @Test("HMAC-SHA256 matches RFC 4231 test case 2")
    func hmacVector() {
        let mac = HMAC.sha256(key: Array("Jefe".utf8), message: Array("what do ya want for nothing?".utf8))
        #expect(Digest.hex(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
        #expect(HMAC.constantTimeEquals(mac, mac) && !HMAC.constantTimeEquals(mac, Array(mac.dropLast())))
    }
}
