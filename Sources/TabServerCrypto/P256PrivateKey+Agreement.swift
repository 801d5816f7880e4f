// SPDX-License-Identifier: Apache-2.0
import CCrypto

extension P256PrivateKey {
    /// The ECDH shared secret with `peer` (32 bytes: the X coordinate of the product).
    public func sharedSecret(with peer: P256PublicKey) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_PKEY_CTX_new(key.pointer, nil) else {
            throw CryptoError("could not start ECDH: \(OpenSSLKey.reason())")
        }
        defer { EVP_PKEY_CTX_free(context) }
        var length = 0
        guard EVP_PKEY_derive_init(context) == 1, EVP_PKEY_derive_set_peer(context, peer.key.pointer) == 1,
            EVP_PKEY_derive(context, nil, &length) == 1, length == 32
        else {
            throw CryptoError("ECDH failed: \(OpenSSLKey.reason())")
        }
        var secret = [UInt8](repeating: 0, count: length)
        guard EVP_PKEY_derive(context, &secret, &length) == 1, length == 32 else {
            throw CryptoError("ECDH failed: \(OpenSSLKey.reason())")
        }
        return secret
    }

    /// An ES256 signature of `message` (ECDSA over SHA-256), as JWS writes it: r ‖ s,
    /// 32 bytes each, 64 in all.
    public func signature(for message: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard let context = EVP_MD_CTX_new() else { throw CryptoError("libcrypto is out of memory") }
        defer { EVP_MD_CTX_free(context) }
        var length = 0
        let signed = message.withUnsafeBufferPointer { bytes -> [UInt8]? in
            guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1,
                EVP_DigestSign(context, nil, &length, bytes.baseAddress, bytes.count) == 1
            else { return nil }
            var der = [UInt8](repeating: 0, count: length)
            guard EVP_DigestSign(context, &der, &length, bytes.baseAddress, bytes.count) == 1 else { return nil }
            return Array(der.prefix(length))
        }
        guard let signed, let raw = Self.rawSignature(signed) else {
            throw CryptoError("ECDSA signing failed: \(OpenSSLKey.reason())")
        }
        return raw
    }

    /// r ‖ s of a DER `ECDSA-Sig-Value`.
    private static func rawSignature(_ der: [UInt8]) -> [UInt8]? {
        der.withUnsafeBufferPointer { buffer -> [UInt8]? in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let signature = d2i_ECDSA_SIG(nil, &cursor, buffer.count) else { return nil }
            defer { ECDSA_SIG_free(signature) }
            var raw = [UInt8](repeating: 0, count: 64)
            let written = raw.withUnsafeMutableBufferPointer { out in
                BN_bn2binpad(ECDSA_SIG_get0_r(signature), out.baseAddress, 32) == 32
                    && BN_bn2binpad(ECDSA_SIG_get0_s(signature), out.baseAddress! + 32, 32) == 32
            }
            return written ? raw : nil
        }
    }
}
