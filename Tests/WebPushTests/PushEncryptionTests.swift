// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerPush
import Testing

/// RFC 8291's published example (Appendix A): its keys, salt and secret give exactly its
/// message, byte for byte.
@Suite("Web Push encryption (RFC 8291, aes128gcm)")
struct PushEncryptionTests {
    static func bytes(_ text: String) -> [UInt8] { Base64URL.decode(text)! }

    static let plaintext = Array("When I grow up, I want to be a watermelon".utf8)
    static let receiverPublic = bytes(
        "BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4")
    static let receiverPrivate = bytes("q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94")
    static let senderPublic = bytes(
        "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
    static let senderPrivate = bytes("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw")
    static let salt = bytes("DGv6ra1nlYgDCS1FRnbzlw")
    static let auth = bytes("BTBZMqHH6r4Tts7J_aSIgg")
    static let message = bytes(
        "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
    )

    @Test("the example's keys, salt and secret give the example's message byte for byte")
    func rfcExample() throws {
        let sender = try P256PrivateKey(rawScalar: Self.senderPrivate, publicKey: Self.senderPublic)
        let body = try PushEncryption.encrypt(
            Self.plaintext, receiverKey: Self.receiverPublic, authSecret: Self.auth, senderKey: sender, salt: Self.salt)
        #expect(Base64URL.encode(body) == Base64URL.encode(Self.message))
    }

    @Test("the receiver's side of the example agrees on the same ECDH secret as the sender's")
    func agreement() throws {
        let sender = try P256PrivateKey(rawScalar: Self.senderPrivate, publicKey: Self.senderPublic)
        let receiver = try P256PrivateKey(rawScalar: Self.receiverPrivate, publicKey: Self.receiverPublic)
        let one = try sender.sharedSecret(with: receiver.publicKey)
        let other = try receiver.sharedSecret(with: sender.publicKey)
        #expect(one == other)
        #expect(one.count == 32)
    }

    @Test("a payload over one record's room is refused, one at the limit is sealed into 4,096 bytes")
    func payloadLimit() throws {
        let receiver = P256PrivateKey.generate()
        let sender = P256PrivateKey.generate()
        let salt = SecureRandom.bytes(16)
        let auth = SecureRandom.bytes(16)
        let full = try PushEncryption.encrypt(
            [UInt8](repeating: 0x41, count: PushEncryption.maxPayload),
            receiverKey: receiver.publicKey.rawRepresentation,
            authSecret: auth, senderKey: sender, salt: salt)
        #expect(full.count == PushEncryption.recordSize)
        #expect(throws: CryptoError.self) {
            try PushEncryption.encrypt(
                [UInt8](repeating: 0x41, count: PushEncryption.maxPayload + 1),
                receiverKey: receiver.publicKey.rawRepresentation, authSecret: auth, senderKey: sender, salt: salt)
        }
    }

    @Test("a receiver key that is not a point on the curve is refused")
    func badReceiverKey() {
        var point = Self.receiverPublic
        point[40] ^= 0x01
        #expect(throws: CryptoError.self) { try P256PublicKey(rawRepresentation: point) }
        #expect(throws: CryptoError.self) { try P256PublicKey(rawRepresentation: Array(point.prefix(33))) }
    }

    @Test("AES-128-GCM opens what it sealed and refuses a changed byte")
    func gcmRoundTrip() throws {
        let key = SecureRandom.bytes(16)
        let nonce = SecureRandom.bytes(12)
        var sealed = try AES128GCM.seal(Array("hello".utf8), key: key, nonce: nonce)
        #expect(try AES128GCM.open(sealed, key: key, nonce: nonce) == Array("hello".utf8))
        sealed[2] ^= 0x80
        #expect(throws: CryptoError.self) { try AES128GCM.open(sealed, key: key, nonce: nonce) }
    }

    @Test("HKDF-SHA-256 gives RFC 5869's first test case")
    func hkdf() {
        let ikm = [UInt8](repeating: 0x0B, count: 22)
        let salt: [UInt8] = Array(0x00...0x0C)
        let info: [UInt8] = Array(0xF0...0xF9)
        let okm = HKDF.sha256(salt: salt, inputKeyMaterial: ikm, info: info, length: 42)
        #expect(
            Digest.hex(okm)
                == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
    }
}
