// SPDX-License-Identifier: Apache-2.0
/// Why a TLS context could not be made (a certificate or key file that is missing,
/// unreadable, expired or not the certificate's key, named with the problem), or why a
/// client connection failed.
public struct TLSError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed, naming the file, in words a person running the server can act on.
    public let reason: String
    /// Whether a client connection failed because its deadline passed.
    public let timedOut: Bool

    init(_ reason: String, timedOut: Bool = false) {
        self.reason = reason
        self.timedOut = timedOut
    }

    public var description: String { reason }
}
