// SPDX-License-Identifier: Apache-2.0
import CCrypto

/// Cryptographically secure random bytes from OpenSSL's CSPRNG (`RAND_bytes`).
///
/// ```swift
/// let id = SecureRandom.bytes(16)   // 128 bits for a session id
/// ```
public enum SecureRandom {
    /// `count` random bytes (none for a count below one). Traps if the CSPRNG fails: an
    /// unseeded generator must never produce session ids or tokens, there is no safe
    /// fallback, and no input can cause it.
    public static func bytes(_ count: Int) -> [UInt8] {
        let count = min(max(0, count), Int(Int32.max))
        var result = [UInt8](repeating: 0, count: count)
        let status = result.withUnsafeMutableBufferPointer { buffer in
            RAND_bytes(buffer.baseAddress, Int32(count))
        }
        precondition(status == 1, "RAND_bytes failed: the CSPRNG is not usable")
        return result
    }
}
