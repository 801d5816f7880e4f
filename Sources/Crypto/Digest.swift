import CCrypto

/// Hashes, keyed hashes and constant-time comparison from OpenSSL libcrypto.
///
/// ```swift
/// let tag = Digest.hmacSHA256(key: secret, message: Array("session-id".utf8))
/// Digest.constantTimeEquals(tag, presented)
/// ```
public enum Digest {
    /// SHA-256 of `bytes` (32 bytes).
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        oneShot(bytes, length: Int(SHA256_DIGEST_LENGTH), SHA256)
    }

    /// SHA-1 of `bytes` (20 bytes). Only for names that must be SHA-1, like Redis's
    /// `EVALSHA` script ids; never for anything that needs a secure hash.
    public static func sha1(_ bytes: [UInt8]) -> [UInt8] {
        oneShot(bytes, length: Int(SHA_DIGEST_LENGTH), SHA1)
    }

    /// Lowercase hexadecimal of `bytes` ("0a1b…").
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 15)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// Runs one of libcrypto's one-shot digest functions (`SHA256`, `SHA1`).
    private static func oneShot(
        _ bytes: [UInt8], length: Int,
        _ function: (UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>?
    ) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                _ = function(input.baseAddress, input.count, out.baseAddress)
            }
        }
        return output
    }

    /// HMAC-SHA-256 of `message` under `key` (32 bytes).
    public static func hmacSHA256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0  // stays 0 if HMAC fails, so the check below traps instead of returning zeros
        key.withUnsafeBufferPointer { keyBuffer in
            message.withUnsafeBufferPointer { messageBuffer in
                output.withUnsafeMutableBufferPointer { out in
                    _ = HMAC(
                        EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count),
                        messageBuffer.baseAddress, messageBuffer.count, out.baseAddress, &length)
                }
            }
        }
        precondition(length == 32, "HMAC-SHA-256 produced \(length) bytes")
        return output
    }

    /// Compares without an early exit, so the time taken says nothing about where two
    /// secrets differ. Different lengths are unequal (lengths are not secret here).
    public static func constantTimeEquals(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        return lhs.withUnsafeBytes { a in
            rhs.withUnsafeBytes { b in CRYPTO_memcmp(a.baseAddress, b.baseAddress, a.count) == 0 }
        }
    }
}
