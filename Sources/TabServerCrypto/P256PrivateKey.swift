// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// A private key on the P-256 curve: signs ES256 (VAPID's JWTs, RFC 8292) and agrees
/// on an ECDH secret (a push message's encryption, RFC 8291). Kept as PKCS #8 PEM.
///
/// ```swift
/// let key = P256PrivateKey.generate()
/// let pem = key.pemRepresentation                      // "-----BEGIN PRIVATE KEY-----…"
/// let again = try P256PrivateKey(pemRepresentation: pem)
/// let signature = try key.signature(for: Array("header.claims".utf8))   // 64 bytes
/// ```
public struct P256PrivateKey: Sendable {
    let key: OpenSSLKey
    /// The key's public half.
    public let publicKey: P256PublicKey

    private init(key: OpenSSLKey) throws(CryptoError) {
        guard key.groupName == "prime256v1" else {
            throw CryptoError("the key is not on the P-256 curve (found \(key.groupName ?? "no curve"))")
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_PUBKEY(key.pointer, &out)
        guard length > 0, let out else { throw CryptoError("could not read the public key: \(OpenSSLKey.reason())") }
        defer { CRYPTO_free(out, nil, 0) }
        let der = Array(UnsafeBufferPointer(start: out, count: Int(length)))
        guard der.count == 91, Array(der.prefix(26)) == P256PublicKey.spkiPrefix else {
            throw CryptoError("the public key is not an uncompressed P-256 point")
        }
        self.key = key
        publicKey = P256PublicKey(key: try Self.publicOnly(der), rawRepresentation: Array(der.suffix(65)))
    }

    private static func publicOnly(_ der: [UInt8]) throws(CryptoError) -> OpenSSLKey {
        guard let key = OpenSSLKey.decode(der, { d2i_PUBKEY(nil, $0, $1) }) else {
            throw CryptoError("could not read the public key back")
        }
        return key
    }

    /// A fresh key from libcrypto's CSPRNG. Traps if libcrypto cannot make one (it
    /// cannot run out of entropy once seeded, and no input can cause it).
    public static func generate() -> P256PrivateKey {
        guard let pointer = ccrypto_generate_p256(), let key = try? P256PrivateKey(key: OpenSSLKey(pointer)) else {
            preconditionFailure("libcrypto could not make a P-256 key: \(OpenSSLKey.reason())")
        }
        return key
    }

    /// The key in a PEM text (`PRIVATE KEY`, PKCS #8, or `EC PRIVATE KEY`, SEC 1);
    /// throws for no PEM key, an encrypted one, or a key of another curve or type.
    public init(pemRepresentation: [UInt8]) throws(CryptoError) {
        let parsed = pemRepresentation.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let parsed else {
            ERR_clear_error()
            throw CryptoError("no unencrypted private key in PEM form")
        }
        try self.init(key: OpenSSLKey(parsed))
    }

    /// The key whose secret scalar is `rawScalar` (32 bytes, big-endian) and whose
    /// public point is `publicKey` (65 bytes): a published test vector's key. Throws when
    /// either is malformed.
    public init(rawScalar: [UInt8], publicKey: [UInt8]) throws(CryptoError) {
        guard rawScalar.count == 32, publicKey.count == 65 else {
            throw CryptoError("a P-256 key is a 32-byte scalar and a 65-byte point")
        }
        // SEC 1's ECPrivateKey: version 1, the scalar, the curve, the public point.
        let der: [UInt8] =
            [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20] + rawScalar
            + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0xA1, 0x44, 0x03, 0x42, 0x00]
            + publicKey
        guard let key = OpenSSLKey.decode(der, { d2i_PrivateKey(EVP_PKEY_EC, nil, $0, $1) }) else {
            throw CryptoError("the scalar and point are not a P-256 key")
        }
        try self.init(key: key)
        guard self.publicKey.rawRepresentation == publicKey else {
            throw CryptoError("the point is not the scalar's public key")
        }
    }

    /// The key as PKCS #8 PEM text, unencrypted (keep the file private).
    public var pemRepresentation: [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else { preconditionFailure("libcrypto is out of memory") }
        defer { BIO_free(bio) }
        guard PEM_write_bio_PrivateKey(bio, key.pointer, nil, nil, 0, nil, nil) == 1 else {
            preconditionFailure("libcrypto could not write a key: \(OpenSSLKey.reason())")
        }
        var text = [UInt8](repeating: 0, count: Int(BIO_ctrl_pending(bio)))
        let count = text.withUnsafeMutableBytes { BIO_read(bio, $0.baseAddress, Int32($0.count)) }
        return Array(text.prefix(Int(max(0, count))))
    }
}
