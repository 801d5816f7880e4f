// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto

/// Message encryption for Web Push (RFC 8291): the payload sealed for one browser with
/// an ECDH agreement between a key made for this message alone and the browser's
/// `p256dh`, mixed with its `auth` secret, in the `aes128gcm` content coding of RFC 8188
/// (one record; its header carries the salt, the record size and the sender's key).
///
/// ```swift
/// let body = try PushEncryption.encrypt(payload, for: subscription)   // Content-Encoding: aes128gcm
/// ```
public enum PushEncryption {
    /// The record size written in the header.
    public static let recordSize = 4096
    /// The header's length: salt (16), record size (4), key length (1), key (65).
    public static let headerLength = 86
    /// The largest payload one record holds (4096 − 86 − the padding delimiter − the tag).
    public static let maxPayload = recordSize - headerLength - 1 - AES128GCM.tagLength

    /// `payload` sealed for `subscription` with a fresh key and salt.
    public static func encrypt(_ payload: [UInt8], for subscription: PushSubscription) throws(CryptoError)
        -> [UInt8]
    {
        try encrypt(
            payload, receiverKey: subscription.p256dh, authSecret: subscription.auth,
            senderKey: P256PrivateKey.generate(), salt: SecureRandom.bytes(16))
    }

    /// `payload` sealed with the given sender key and salt (a test vector's). Throws for
    /// a payload over `maxPayload` bytes or a receiver key that is no P-256 point.
    public static func encrypt(
        _ payload: [UInt8], receiverKey: [UInt8], authSecret: [UInt8], senderKey: P256PrivateKey, salt: [UInt8]
    ) throws(CryptoError) -> [UInt8] {
        guard payload.count <= maxPayload else {
            throw CryptoError("a push payload holds at most \(maxPayload) bytes (got \(payload.count))")
        }
        guard salt.count == 16, authSecret.count == 16 else {
            throw CryptoError("the salt and the auth secret are 16 bytes each")
        }
        let receiver = try P256PublicKey(rawRepresentation: receiverKey)
        let sender = senderKey.publicKey.rawRepresentation
        let shared = try senderKey.sharedSecret(with: receiver)
        // RFC 8291 §3.4: the auth secret and both keys go into the input keying material.
        let keyInfo = Array("WebPush: info".utf8) + [0] + receiverKey + sender
        let inputKey = HKDF.sha256(salt: authSecret, inputKeyMaterial: shared, info: keyInfo, length: 32)
        // RFC 8188 §2.2 and §2.3: the content key and the nonce under the salt.
        let pseudorandomKey = HKDF.extract(salt: salt, inputKeyMaterial: inputKey)
        let contentKey = HKDF.expand(
            pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: aes128gcm".utf8) + [0], length: 16)
        let nonce = HKDF.expand(
            pseudorandomKey: pseudorandomKey, info: Array("Content-Encoding: nonce".utf8) + [0], length: 12)
        // The last (and only) record ends with the delimiter 2 and no padding.
        let sealed = try AES128GCM.seal(payload + [2], key: contentKey, nonce: nonce)
        var body = salt
        body.reserveCapacity(headerLength + sealed.count)
        let size = UInt32(recordSize)
        body += [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
        body.append(UInt8(sender.count))
        body += sender
        body += sealed
        return body
    }
}
