// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// Hashes from OpenSSL libcrypto, and the hex form they are usually shown in.
///
/// ```swift
/// let etag = Digest.hex(Digest.sha256(bytes).prefix(8))
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
}
