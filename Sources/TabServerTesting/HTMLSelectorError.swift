// SPDX-License-Identifier: Apache-2.0

/// A selector `HTMLDocument` and `HTMLElement` cannot read: a typo, or CSS outside the
/// subset they support (pseudo-classes, the `+` and `~` combinators). Thrown rather than
/// matching nothing, so a check that something is absent cannot pass by accident.
///
/// ```swift
/// #expect(throws: HTMLSelectorError.self) { try page.document.select("a[href") }
/// ```
public struct HTMLSelectorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The selector as given.
    public let selector: String
    /// Where reading failed, counted in Unicode scalars from 0 (characters, for an
    /// ASCII selector); the selector's length when it ended too early.
    public let position: Int
    /// What was wrong there (`expected ']'`).
    public let reason: String

    /// `invalid selector "a[href" at 6: expected ']'`
    public var description: String { "invalid selector \"\(selector)\" at \(position): \(reason)" }
}
