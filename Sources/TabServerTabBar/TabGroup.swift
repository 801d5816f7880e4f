// SPDX-License-Identifier: Apache-2.0
/// A declared tab group that is one tab of the bar (UIKit's `UITabGroup`): on a phone,
/// and wherever the bar shows, it is a single item whose page lists its children, each
/// opening on the group's own stack. In the sidebar it is a collapsible section of its
/// children, like an undeclared `Tab.group`.
///
/// Its children are the tabs whose `group` is the group's `id`; they must be consecutive
/// in the model, keep the automatic placement and cannot be hidden (the group is the
/// bar's item for them). `allowsReordering` lets the visitor reorder them in Edit.
///
/// ```swift
/// let library = TabGroup(id: "library", title: "Library", icon: "library.svg", allowsReordering: true)
/// ```
public struct TabGroup: Sendable, Hashable {
    /// The group's identity and URL segment (`/tabs/<id>` is its page); the same syntax
    /// as a tab id, and no tab may have it.
    public var id: String
    /// The bar item's label and the group page's title.
    public var title: String
    /// The bar item's icon file name.
    public var icon: String
    /// The icon while the group is selected; `nil` uses `icon`.
    public var selectedIcon: String?
    /// Whether the visitor may reorder the group's children in Edit (UIKit's `allowsReordering`).
    public var allowsReordering: Bool

    /// Creates a group; its children name it in their `group`.
    public init(
        id: String, title: String, icon: String, selectedIcon: String? = nil, allowsReordering: Bool = false
    ) {
        self.id = id
        self.title = title
        self.icon = icon
        self.selectedIcon = selectedIcon
        self.allowsReordering = allowsReordering
    }

    /// The group as the bar draws it: an item with the group's id, title and icons, fixed
    /// in place (the group moves with its children's model position).
    public var barTab: Tab {
        Tab(id: id, title: title, icon: icon, selectedIcon: selectedIcon, isCustomizable: false)
    }
}
