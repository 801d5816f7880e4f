// SPDX-License-Identifier: Apache-2.0
/// Why Web Push refused something: JSON that is not a push subscription, an endpoint
/// that is not a public `https` URL, keys of the wrong size (shown to the visitor: 422),
/// or a VAPID key file that cannot be read or written (at start-up).
public struct WebPushError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong, in words.
    public let reason: String

    /// An error saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}
