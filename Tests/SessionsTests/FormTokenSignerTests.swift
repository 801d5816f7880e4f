// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import Testing

@testable import TabServerSessions

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

    @Test("a token is signed once an hour, however many pages carry it or forms check it")
    func signedOncePerHour() {
        let signer = FormTokenSigner(secret: Array(String(repeating: "s", count: 32).utf8))
        let first = signer.token(now: now)
        for offset in 0..<1_000 {
            #expect(signer.token(now: now + Int64(offset % 60)) == first)
            #expect(signer.isValid(first, now: now + Int64(offset % 60), maxAge: 86_400))
        }
        #expect(signer.signedCount == 1)
        // The next hour signs anew; last hour's token still checks without signing again.
        let next = signer.token(now: now + 3_600)
        #expect(next != first)
        #expect(signer.isValid(first, now: now + 3_600, maxAge: 86_400))
        #expect(signer.signedCount == 2)
        // A token another key made, or a forged one, is still refused.
        let other = FormTokenSigner(secret: Array(String(repeating: "t", count: 32).utf8))
        #expect(!signer.isValid(other.token(now: now), now: now, maxAge: 86_400))
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
