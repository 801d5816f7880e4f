// SPDX-License-Identifier: Apache-2.0
/// One visitor's tab bar state, the part of `UITabBarController` that differs per
/// person: selection, each tab's navigation position, custom order and badges.
///
/// It is a small value stored in the visitor's session (in the session store's binary
/// form; its `Codable` form is for apps). It refers to tabs by
/// id only, so it survives model changes; `TabBarController.reconciled(_:)` drops
/// what no longer applies. Change it through the controller, which keeps `version`.
public struct TabBarState: Sendable, Hashable {
    /// The selected tab (`selectedIndex`); `nil` means the model's first enabled tab.
    public var selectedTabID: String?
    /// The visitor's order of all tab ids, bar first then More; `nil` is the model's
    /// default order, so visitors who never customize follow model changes exactly.
    public var order: [String]?
    /// Remembered location below each tab's root, e.g. "albums/12/tracks/3": the
    /// counterpart of each tab's navigation stack. Absent (or "") is the root.
    public var locations: [String: String]
    /// Per-visitor badges, by tab id, replacing the model's badge for this visitor.
    public var badgeOverrides: [String: BadgeOverride]
    /// Incremented by every change made through the controller. Forms carry the
    /// version they were rendered with, so an edit from a stale window is detected.
    public var version: Int
    /// The visitor's choice at 1024 px and wider where the appearance offers the sidebar
    /// toggle (`TabBarAppearance.allowsSidebarToggle`): `true` hides the sidebar (the
    /// bar shows), `false` shows it, nil follows the appearance (UIKit's
    /// `UITabBarController.sidebar.isHidden`). Kept while the toggle is not offered, and
    /// used again if it returns.
    public var isSidebarHidden: Bool?
    /// The visitor's hide and show choices from Edit, by tab id (UIKit's hidden tabs of a
    /// customized tab bar): `true` hides the tab, `false` shows one that starts hidden
    /// (`isHiddenByDefault`, `.optional`). Only choices that differ from the model's
    /// default are kept; reconciling drops unknown tabs and tabs that no longer allow hiding.
    public var hiddenChoices: [String: Bool]
    /// The tab groups (`Tab.group`) whose sidebar sections the visitor collapsed, sorted.
    /// Reconciling drops groups the model no longer has.
    public var collapsedGroups: [String]

    /// A fresh state: default selection and order, no locations or overrides, version 0.
    public init() {
        selectedTabID = nil
        order = nil
        locations = [:]
        badgeOverrides = [:]
        version = 0
        isSidebarHidden = nil
        hiddenChoices = [:]
        collapsedGroups = []
    }

    /// Whether `location` is acceptable as a remembered location; the same rule as
    /// `TabBarController.isValidLocation(_:)`.
    public static func isValidLocation(_ location: String) -> Bool {
        TabBarController.isValidLocation(location)
    }

    /// The same state with its version moved on if anything differs from `old`.
    /// Every controller operation ends here, so "changed" always means "new version".
    func committed(since old: TabBarState) -> TabBarState {
        var candidate = self
        candidate.version = old.version
        guard candidate != old else { return old }
        candidate.version = old.version &+ 1
        return candidate
    }
}
