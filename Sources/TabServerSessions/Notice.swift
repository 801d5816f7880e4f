// SPDX-License-Identifier: Apache-2.0
/// A one-time message for the visitor's next page, kept in the session so it survives
/// the redirect after a POST (a vetoed or refused tab selection).
public struct Notice: Sendable, Hashable, Codable {
    /// The message.
    public var message: String
    /// A tab the visitor may select anyway by confirming (the confirm button posts it).
    public var confirmTabID: String?

    public init(message: String, confirmTabID: String? = nil) {
        self.message = message
        self.confirmTabID = confirmTabID
    }
}
