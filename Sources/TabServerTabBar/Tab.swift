// SPDX-License-Identifier: Apache-2.0
/// One tab of the shared model: the web counterpart of a view controller in
/// `UITabBarController.viewControllers` together with its `tabBarItem`.
///
/// A `Tab` is plain data; `TabBarModel.init` validates it (id syntax, title, icon and
/// template names, badge) so a bad definition stops start-up with a clear message
/// instead of producing a broken page.
///
/// ```swift
/// let music = Tab(id: "music", title: "Music", icon: "music.svg",
///                 selectedIcon: "music-fill.svg", badge: .count(3))
/// ```
public struct Tab: Sendable, Hashable {
    /// The tab's identity and URL segment (`/tabs/<id>/…`): 1–32 characters of
    /// `a-z`, `0-9` and `-`, starting with a letter. Plays the role of UIKit's `tag`.
    public var id: String
    /// The label under the icon; must contain more than whitespace.
    public var title: String
    /// Icon file name, e.g. "music.svg". Whether the file exists is the app's concern;
    /// the model only checks that the name is a safe relative path.
    public var icon: String
    /// Icon shown while the tab is selected (UIKit's `selectedImage`); `nil` uses `icon`.
    public var selectedIcon: String?
    /// The badge every visitor sees unless their state overrides it (`badgeValue`).
    public var badge: Badge?
    /// A disabled tab is shown dimmed and cannot be selected or visited (`isEnabled`).
    public var isEnabled: Bool
    /// Whether the visitor may move this tab (UIKit's `customizableViewControllers`).
    /// A non-customizable tab stays at its model position, in the bar or in More.
    public var isCustomizable: Bool
    /// Whether selecting the tab hides its badge for that visitor, for badges that
    /// announce something the visitor sees by opening the tab ("New", unread counts).
    public var clearsBadgeOnSelect: Bool
    /// Name of the content template rendered for this tab; defaults to `id`.
    public var template: String
    /// The tab group this tab belongs to (UIKit's `UITabGroup`), shown as a heading in
    /// the sidebar layout; consecutive tabs with the same group form one group. When it
    /// names a declared `TabGroup` (`TabBarModel.groups`), the group is also one item of
    /// the bar standing for its children.
    public var group: String? = nil
    /// `.search` makes this the search tab, `.prominent` the tab drawn apart (see `TabRole`).
    public var role: TabRole = .standard
    /// Where the tab may appear and whether it moves (UIKit's `preferredPlacement`; see
    /// `TabPlacement`).
    public var preferredPlacement: TabPlacement = .automatic
    /// Whether the visitor may hide the tab in Edit (UIKit's `allowsHiding`). Implied by
    /// `.optional`; refused for `.fixed`, `.movable`, `.pinned`, `.sidebarOnly`, the search tab and
    /// the prominent tab.
    public var allowsHiding: Bool = false
    /// Whether the tab starts hidden for a visitor who has not shown it (UIKit's
    /// `isHiddenByDefault`); needs `allowsHiding`. Implied by `.optional`.
    public var isHiddenByDefault: Bool = false

    /// Creates a tab; `template` defaults to `id`.
    public init(
        id: String,
        title: String,
        icon: String,
        selectedIcon: String? = nil,
        badge: Badge? = nil,
        isEnabled: Bool = true,
        isCustomizable: Bool = true,
        clearsBadgeOnSelect: Bool = false,
        template: String? = nil
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.selectedIcon = selectedIcon
        self.badge = badge
        self.isEnabled = isEnabled
        self.isCustomizable = isCustomizable
        self.clearsBadgeOnSelect = clearsBadgeOnSelect
        self.template = template ?? id
    }

    /// Whether a visitor may hide and show this tab in Edit.
    public var isHideable: Bool {
        role == .standard && (allowsHiding || preferredPlacement == .optional)
    }

    /// Whether the tab is hidden for a visitor who made no choice about it.
    public var startsHidden: Bool {
        isHideable && (isHiddenByDefault || preferredPlacement == .optional)
    }

    /// Whether the tab keeps its model position: not customizable, `.fixed`, `.pinned`,
    /// `.sidebarOnly`, the search tab or the prominent tab.
    public var isFixedInPlace: Bool {
        if role != .standard { return true }
        switch preferredPlacement {
        case .fixed, .pinned, .sidebarOnly: return true
        case .movable, .optional: return false
        case .automatic: return !isCustomizable
        }
    }

    /// Whether the tab sits at the bar's trailing end (pinned tabs, the search tab, then
    /// the prominent tab).
    public var isTrailing: Bool { role != .standard || preferredPlacement == .pinned }

    /// The icon to draw for the given selection state.
    public func icon(selected: Bool) -> String {
        selected ? (selectedIcon ?? icon) : icon
    }
}
