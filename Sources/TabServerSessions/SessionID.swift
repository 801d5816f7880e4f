// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto

/// A 128-bit session id from the CSPRNG. Held as two integers so a session costs no
/// heap allocation for its id; written in cookies as 22 characters of base64url.
///
/// ```swift
/// let id = SessionID.generate()
/// SessionID(cookieValue: id.text) == id   // true
/// SessionID(cookieValue: "forged")        // nil
/// ```
public struct SessionID: Sendable, Hashable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64

    /// A fresh id from libcrypto's `RAND_bytes`.
    public static func generate() -> SessionID {
        SessionID(bytes: SecureRandom.bytes(16))!
    }

    /// Parses a cookie value; nil unless it is exactly the 22-character form this server
    /// writes (so truncated, over-long, padded or non-ASCII values are refused early).
    public init?(cookieValue: some StringProtocol) {
        guard let words = Base64URL.decode128(String(cookieValue)) else { return nil }
        high = words.high
        low = words.low
    }

    /// The id of 128 bits, big-endian (a cookie's, decoded where it is stored).
    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// An id from exactly 16 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 16 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for index in 0..<8 {
            high = high << 8 | UInt64(bytes[index])
            low = low << 8 | UInt64(bytes[index + 8])
        }
        self.high = high
        self.low = low
    }

    /// The 16 bytes, big-endian.
    public var bytes: [UInt8] {
        (0..<16).map { index in
            let word = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
        }
    }

    /// Calls `body` with the 16 bytes, big-endian, from the stack (no array).
    public func withUnsafeBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var words = (high.bigEndian, low.bigEndian)
        return try Swift.withUnsafeBytes(of: &words) { raw throws(Failure) in try body(raw) }
    }

    /// The cookie form.
    public var text: String { Base64URL.encode(bytes) }

    /// Logs show only a prefix: a full id in a log file would be a credential.
    public var description: String { String(text.prefix(6)) + "…" }
}

extension SessionID {
    /// Equality without an early exit, for comparing presented tokens.
    public func constantTimeEquals(_ other: SessionID) -> Bool {
        (high ^ other.high) | (low ^ other.low) == 0
    }
}
