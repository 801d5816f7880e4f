// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// A public key on the P-256 curve (secp256r1), read from its uncompressed point: the 65
/// bytes `04 ‖ X ‖ Y` a browser's push subscription carries as `p256dh`.
///
/// ```swift
/// let key = try P256PublicKey(rawRepresentation: Base64URL.decode(p256dh) ?? [])
/// key.isValidSignature(signature, for: message)   // ES256: raw r ‖ s over SHA-256
/// ```
public struct P256PublicKey: Sendable, Equatable {
    /// The uncompressed point (65 bytes).
    public let rawRepresentation: [UInt8]
    let key: OpenSSLKey

    /// The DER prefix of a P-256 SubjectPublicKeyInfo (id-ecPublicKey, prime256v1, and
    /// the bit string's header) that the 65-byte point completes.
    static let spkiPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48,
        0xCE, 0x3D, 0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The key whose uncompressed point is `rawRepresentation`; throws for another
    /// length, a compressed point, or a point that is not on the curve.
    public init(rawRepresentation: [UInt8]) throws(CryptoError) {
        guard rawRepresentation.count == 65, rawRepresentation[0] == 0x04 else {
            throw CryptoError("a P-256 public key is 65 bytes starting with 04 (got \(rawRepresentation.count) bytes)")
        }
        guard let key = OpenSSLKey.decode(Self.spkiPrefix + rawRepresentation, { d2i_PUBKEY(nil, $0, $1) }),
            key.groupName == "prime256v1"
        else {
            throw CryptoError("the 65 bytes are not a point on the P-256 curve")
        }
        self.rawRepresentation = rawRepresentation
        self.key = key
    }

    init(key: OpenSSLKey, rawRepresentation: [UInt8]) {
        self.key = key
        self.rawRepresentation = rawRepresentation
    }

    public static func == (left: P256PublicKey, right: P256PublicKey) -> Bool {
        left.rawRepresentation == right.rawRepresentation
    }

    /// Whether `signature` (64 bytes, r ‖ s, as JWS writes ES256) signs `message` with
    /// this key's private key over SHA-256.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard signature.count == 64, let der = Self.derSignature(signature) else { return false }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer {
            EVP_MD_CTX_free(context)
            ERR_clear_error()
        }
        guard EVP_DigestVerifyInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        return der.withUnsafeBufferPointer { signatureBytes in
            message.withUnsafeBufferPointer { messageBytes in
                EVP_DigestVerify(
                    context, signatureBytes.baseAddress, signatureBytes.count, messageBytes.baseAddress,
                    messageBytes.count) == 1
            }
        }
    }

    /// The DER `ECDSA-Sig-Value` of a raw r ‖ s signature.
    private static func derSignature(_ raw: [UInt8]) -> [UInt8]? {
        guard let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        let r = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress, 32, nil) }
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + 32, 32, nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { return nil }
        defer { CRYPTO_free(out, nil, 0) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
