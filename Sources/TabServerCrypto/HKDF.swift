// SPDX-License-Identifier: Apache-2.0
/// HKDF with SHA-256 (RFC 5869), on `HMAC.sha256`.
///
/// ```swift
/// let key = HKDF.sha256(salt: salt, inputKeyMaterial: secret, info: Array("info".utf8), length: 16)
/// ```
public enum HKDF {
    /// HKDF-Extract: the pseudorandom key of `inputKeyMaterial` under `salt`.
    public static func extract(salt: [UInt8], inputKeyMaterial: [UInt8]) -> [UInt8] {
        HMAC.sha256(key: salt, message: inputKeyMaterial)
    }

    /// HKDF-Expand: `length` bytes (at most 255 × 32) of `info` under `pseudorandomKey`.
    public static func expand(pseudorandomKey: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        precondition((0...255 * 32).contains(length), "HKDF-SHA-256 makes at most 8,160 bytes")
        var output: [UInt8] = []
        var block: [UInt8] = []
        var counter: UInt8 = 1
        while output.count < length {
            block = HMAC.sha256(key: pseudorandomKey, message: block + info + [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// Extract, then expand.
    public static func sha256(salt: [UInt8], inputKeyMaterial: [UInt8], info: [UInt8], length: Int) -> [UInt8] {
        expand(pseudorandomKey: extract(salt: salt, inputKeyMaterial: inputKeyMaterial), info: info, length: length)
    }
}
