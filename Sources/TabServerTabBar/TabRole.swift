// SPDX-License-Identifier: Apache-2.0
/// What a tab is for.
///
/// `.search` is UIKit's `UISearchTab` and SwiftUI's `Tab(role: .search)`: the tab sits at
/// the trailing end of the bar (leading in right-to-left), always in the bar, never in
/// More, and is not moved by customizing; its remembered location is the last query
/// (`?q=…`).
///
/// `.prominent` is iOS 27's `UITabBarController.prominentTabIdentifier` and SwiftUI's
/// `TabRole.prominent`: the one destination drawn with emphasis, apart from the others.
/// Like the search tab it is always in the bar, at its trailing end, and cannot be hidden
/// or moved. The floating bar draws it as its own tinted circle; with no prominent tab
/// the search tab has that place. The classic bar draws it as its last item, and
/// Material's navigation bar as an ordinary destination.
public enum TabRole: String, Sendable, Hashable, Codable, CaseIterable, NamedChoice {
    /// An ordinary tab.
    case standard
    /// The search tab (at most one per model).
    case search
    /// The tab drawn apart with emphasis (at most one per model).
    case prominent

    static let choiceDescription = "role"

    /// Reads the role's name; any other value is refused with the names it may take.
    public init(from decoder: any Decoder) throws {
        try self.init(decodingNameFrom: decoder)
    }
}
