// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// AES-128 in Galois/Counter Mode from libcrypto, with a 96-bit nonce and a 128-bit tag
/// (what RFC 8188's `aes128gcm` content coding uses).
///
/// ```swift
/// let sealed = try AES128GCM.seal(plaintext, key: key, nonce: nonce)   // ciphertext ‖ tag
/// let opened = try AES128GCM.open(sealed, key: key, nonce: nonce)
/// ```
public enum AES128GCM {
    /// The tag's length in bytes.
    public static let tagLength = 16

    /// `plaintext` encrypted under the 16-byte `key` and 12-byte `nonce`, the tag after it.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        try run(encrypting: true, plaintext, key: key, nonce: nonce)
    }

    /// The plaintext of `sealed` (ciphertext ‖ tag); throws when the tag does not match.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError) -> [UInt8] {
        guard sealed.count >= tagLength else { throw CryptoError("the sealed bytes are shorter than a tag") }
        return try run(encrypting: false, sealed, key: key, nonce: nonce)
    }

    private static func run(encrypting: Bool, _ input: [UInt8], key: [UInt8], nonce: [UInt8]) throws(CryptoError)
        -> [UInt8]
    {
        guard key.count == 16, nonce.count == 12 else {
            throw CryptoError("AES-128-GCM takes a 16-byte key and a 12-byte nonce")
        }
        guard let context = EVP_CIPHER_CTX_new() else { throw CryptoError("libcrypto is out of memory") }
        defer { EVP_CIPHER_CTX_free(context) }
        var body = encrypting ? input : Array(input.dropLast(tagLength))
        var tag = encrypting ? [UInt8](repeating: 0, count: tagLength) : Array(input.suffix(tagLength))
        var output = [UInt8](repeating: 0, count: body.count + 16)
        var written: Int32 = 0
        var finalLength: Int32 = 0
        let init_ =
            encrypting
            ? EVP_EncryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce)
            : EVP_DecryptInit_ex(context, EVP_aes_128_gcm(), nil, key, nonce)
        guard init_ == 1 else { throw CryptoError("AES-128-GCM failed: \(OpenSSLKey.reason())") }
        let updated = output.withUnsafeMutableBufferPointer { out in
            body.withUnsafeMutableBufferPointer { bytes in
                encrypting
                    ? EVP_EncryptUpdate(context, out.baseAddress, &written, bytes.baseAddress, Int32(bytes.count))
                    : EVP_DecryptUpdate(context, out.baseAddress, &written, bytes.baseAddress, Int32(bytes.count))
            }
        }
        guard updated == 1 else { throw CryptoError("AES-128-GCM failed: \(OpenSSLKey.reason())") }
        if !encrypting {
            guard ccrypto_gcm_set_tag(context, &tag) == 1 else { throw CryptoError("AES-128-GCM: tag refused") }
        }
        let finished = output.withUnsafeMutableBufferPointer { out in
            encrypting
                ? EVP_EncryptFinal_ex(context, out.baseAddress! + Int(written), &finalLength)
                : EVP_DecryptFinal_ex(context, out.baseAddress! + Int(written), &finalLength)
        }
        guard finished == 1 else {
            ERR_clear_error()
            throw CryptoError(encrypting ? "AES-128-GCM failed" : "the tag does not match: the bytes were altered")
        }
        body = Array(output.prefix(Int(written + finalLength)))
        if encrypting {
            guard ccrypto_gcm_get_tag(context, &tag) == 1 else { throw CryptoError("AES-128-GCM: no tag") }
            return body + tag
        }
        return body
    }
}
