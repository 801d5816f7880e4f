// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// HMAC-SHA256 (RFC 2104) from OpenSSL libcrypto, and a comparison that takes the same
/// time wherever two MACs differ.
///
/// ```swift
/// let mac = HMAC.sha256(key: key, message: Array("hello".utf8))
/// HMAC.constantTimeEquals(mac, presented)
/// ```
public enum HMAC {
    /// HMAC-SHA256 of `message` under `key` (32 bytes).
    public static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let result = key.withUnsafeBufferPointer { keyBytes in
            message.withUnsafeBufferPointer { messageBytes in
                output.withUnsafeMutableBufferPointer { out in
                    CCrypto.HMAC(
                        EVP_sha256(), keyBytes.baseAddress, Int32(keyBytes.count), messageBytes.baseAddress,
                        messageBytes.count, out.baseAddress, &length)
                }
            }
        }
        precondition(result != nil && length == 32, "HMAC-SHA256 failed in libcrypto")
        return Array(output.prefix(32))
    }

    /// Whether `a` and `b` are equal, in time that depends only on their lengths.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
