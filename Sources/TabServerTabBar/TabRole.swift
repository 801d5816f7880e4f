// SPDX-License-Identifier: Apache-2.0
/// What a tab is for. `.search` is UIKit's `UISearchTab` and SwiftUI's
/// `Tab(role: .search)`: the tab sits at the trailing end of the bar (leading in
/// right-to-left), always in the bar, never in More, and is not moved by customizing;
/// its remembered location is the last query (`?q=…`).
public enum TabRole: String, Sendable, Hashable, Codable {
    /// An ordinary tab.
    case standard
    /// The search tab (at most one per model).
    case search
}
