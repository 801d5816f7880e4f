// SPDX-License-Identifier: Apache-2.0
/// A tab's badge: the web counterpart of `UITabBarItem.badgeValue` and `badgeColor`.
///
/// UIKit's badge is a free string; here the common shapes are spelled out so the view
/// can render them consistently and describe them to screen readers:
/// a short text (`"New"`), a count (capped at "99+" in the bar) or a plain dot.
///
/// ```swift
/// let unread = Badge(.count(120), color: "#ff3b30")
/// unread.displayText    // "99+"
/// unread.accessibleText // "120"
/// ```
public struct Badge: Sendable, Hashable {
    /// What the badge shows.
    public enum Value: Sendable, Hashable {
        /// A short label such as "New".
        case text(String)
        /// A number such as unread items; the bar shows "99+" above 99.
        case count(Int)
        /// A dot without text, for "something changed here".
        case dot
    }

    /// Counts above this show as "99+" so the badge keeps its size in the bar.
    public static let maxDisplayedCount = 99
    /// Material 3's large badge holds up to four characters: counts above this show as "999+".
    public static let materialMaxDisplayedCount = 999

    /// What the badge shows.
    public var value: Value
    /// Badge background as a CSS colour; `nil` leaves the stylesheet's default (red).
    /// Must pass `CSSColor.isValid` because it is written into a `style` attribute;
    /// the model and the controller refuse badges whose colour does not.
    public var color: String?

    /// Creates a badge; `color` is checked when the badge enters a model or a state.
    public init(_ value: Value, color: String? = nil) {
        self.value = value
        self.color = color
    }

    /// Creates a text badge, e.g. `Badge.text("New")`.
    public static func text(_ text: String, color: String? = nil) -> Badge {
        Badge(.text(text), color: color)
    }

    /// Creates a count badge, e.g. `Badge.count(3)`.
    public static func count(_ count: Int, color: String? = nil) -> Badge {
        Badge(.count(count), color: color)
    }

    /// Creates a dot badge.
    public static func dot(color: String? = nil) -> Badge {
        Badge(.dot, color: color)
    }

    /// The text drawn inside the badge: counts above 99 become "99+" (as on iOS home
    /// screen badges, the bar has no room for more), a dot draws no text.
    public var displayText: String { displayText(upTo: Self.maxDisplayedCount) }

    /// The text drawn inside the badge, counts above `maxCount` as "`maxCount`+"
    /// (`materialMaxDisplayedCount` on Material's bar).
    public func displayText(upTo maxCount: Int) -> String {
        switch value {
        case .text(let text):
            return text
        case .count(let count):
            return count > maxCount ? "\(maxCount)+" : String(count)
        case .dot:
            return ""
        }
    }

    /// The text added to the tab's accessible name. Counts are given exactly (a screen
    /// reader has room for "120"), and a dot, which has no text, is described.
    public var accessibleText: String {
        switch value {
        case .text(let text):
            return text
        case .count(let count):
            return String(count)
        case .dot:
            return "new content"
        }
    }
}
