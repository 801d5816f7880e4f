// SPDX-License-Identifier: Apache-2.0
/// A value the app keeps for each visitor (a signed-in user's follows them to every
/// browser), stored with their session under `key`, JSON-encoded. A per-visitor setting,
/// typed.
///
/// ```swift
/// struct ShowDone: VisitorValue {
///     static let key = "habits.showDone"
///     var on = true
/// }
/// let show = context.visitorValue(ShowDone.self) ?? ShowDone()   // in a page
/// context.setVisitorValue(ShowDone(on: false))                    // in an action: stored with its commit
/// ```
public protocol VisitorValue: Codable, Sendable {
    /// The name it is stored under (unique within the app).
    static var key: String { get }
}
