// SPDX-License-Identifier: Apache-2.0
/// Why the engine could not start.
public struct HTTPServerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What failed, in words a person running the server can act on.
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
