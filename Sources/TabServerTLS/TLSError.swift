// SPDX-License-Identifier: Apache-2.0
/// Why a TLS context could not be made: a certificate or key file that is missing,
/// unreadable, expired or not the certificate's key, named with the problem.
public struct TLSError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed, naming the file, in words a person running the server can act on.
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
