// SPDX-License-Identifier: Apache-2.0
/// Why a key could not be read or used: bytes that are no P-256 key, a point off the
/// curve, or a failure inside libcrypto, in words a person can act on.
public struct CryptoError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed.
    public let reason: String

    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
