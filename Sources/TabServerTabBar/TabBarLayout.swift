// SPDX-License-Identifier: Apache-2.0
/// Everything a view needs to draw one visitor's bar, for both widths at once: the
/// page carries both and CSS shows the right one, so no width detection is needed.
///
/// `items` holds every tab in the visitor's order; the bar and More lists are views
/// of it. At compact width a bar with more than 5 tabs shows the first 4 and More; at
/// regular width (>= 768 px) more than 8 shows the first 7 and More.
public struct TabBarLayout: Sendable, Hashable {
    /// One tab as rendered.
    public struct Item: Sendable, Hashable {
        /// The tab's model data.
        public let tab: Tab
        /// 1-based position in the visitor's order ("three of seven").
        public let position: Int
        /// Whether this is the selected tab.
        public let isSelected: Bool
        /// The badge this visitor sees: the model's, or their override.
        public let badge: Badge?
        /// Shown in the bar at compact width (otherwise listed in More).
        public let inCompactBar: Bool
        /// Shown in the bar at regular width (otherwise listed in More).
        public let inRegularBar: Bool
        /// The declared group (`TabGroup`) this tab is a child of: it is in neither bar nor
        /// More (the group's item stands for it there) and shows in the sidebar.
        public var groupID: String? = nil
        /// Whether this item is a declared group's bar item (its `tab` is `TabGroup.barTab`):
        /// in the bars and More, not in the sidebar, which shows the children instead.
        public var isGroup = false

        /// In neither bar nor More: sidebar-only, or a child of a declared group.
        public var isSidebarOnly: Bool { tab.preferredPlacement == .sidebarOnly || groupID != nil }

        /// The icon for the item's current selection state.
        public var icon: String { tab.icon(selected: isSelected) }
    }

    /// All tabs, in the visitor's order.
    public let items: [Item]
    /// Number of tabs.
    public let count: Int
    /// Whether the compact bar ends with a More item (more than 5 tabs).
    public let showsMoreCompact: Bool
    /// Whether the regular bar ends with a More item (more than 8 tabs).
    public let showsMoreRegular: Bool
    /// Whether the selected tab sits in More at compact width, so the More item is
    /// highlighted there. (The app also highlights More while the More page is open.)
    public let isMoreSelected: Bool
    /// The same for regular width.
    public let isMoreSelectedRegular: Bool

    /// Builds a layout from items already in order; the flags follow from them.
    init(items: [Item]) {
        self.items = items
        count = items.count
        showsMoreCompact = items.contains { !$0.inCompactBar && !$0.isSidebarOnly }
        showsMoreRegular = items.contains { !$0.inRegularBar && !$0.isSidebarOnly }
        isMoreSelected = items.contains { $0.isSelected && !$0.inCompactBar && !$0.isSidebarOnly }
        isMoreSelectedRegular = items.contains { $0.isSelected && !$0.inRegularBar && !$0.isSidebarOnly }
    }

    /// Tabs in the bar at compact width, in order.
    public var compactBarItems: [Item] { items.filter(\.inCompactBar) }
    /// Tabs listed in More at compact width, in order.
    public var compactMoreItems: [Item] { items.filter { !$0.inCompactBar && !$0.isSidebarOnly } }
    /// Tabs in the bar at regular width, in order.
    public var regularBarItems: [Item] { items.filter(\.inRegularBar) }
    /// Tabs listed in More at regular width, in order.
    public var regularMoreItems: [Item] { items.filter { !$0.inRegularBar && !$0.isSidebarOnly } }
    /// The selected item.
    public var selectedItem: Item? { items.first(where: \.isSelected) }

    /// How many tabs the bar shows for `count` tabs and a bar of `capacity`: all of
    /// them if they fit, else one place fewer to make room for More.
    public static func barCount(forTabCount count: Int, capacity: Int) -> Int {
        count > capacity ? capacity - 1 : count
    }
}
