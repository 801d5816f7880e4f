// SPDX-License-Identifier: Apache-2.0
/// A store that cannot answer: the app maps it to a 503 page.
public struct SessionStoreError: Error, Sendable, CustomStringConvertible, Equatable {
    /// What failed, for the log ("redis 127.0.0.1:6379: connection refused").
    public let reason: String

    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
