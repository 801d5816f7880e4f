// SPDX-License-Identifier: Apache-2.0
/// The shared tab bar definition every visitor sees: the tabs in their default order
/// and the bar's appearance (UIKit's `viewControllers` plus `tabBar` appearance).
///
/// A model only exists validated, so the controller and the views never meet an
/// invalid id, colour or file name. Changing the tabs at runtime means building a new
/// model; visitor states catch up through `TabBarController.reconciled(_:)`.
///
/// ```swift
/// let model = try TabBarModel(tabs: [
///     Tab(id: "home", title: "Home", icon: "home.svg", isCustomizable: false),
///     Tab(id: "music", title: "Music", icon: "music.svg", badge: .text("New")),
/// ])
/// ```
public struct TabBarModel: Sendable {
    /// More than this many tabs at compact width: the bar shows `compactBarCapacity - 1`
    /// tabs and a More item, as `UITabBarController` does on a phone.
    public static let compactBarCapacity = 5
    /// More than this many tabs at regular width (>= 768 px): `regularBarCapacity - 1`
    /// tabs and More.
    public static let regularBarCapacity = 8
    /// At most this many tabs at the bar's trailing end (pinned tabs, the search tab and
    /// the prominent tab), so a phone's bar keeps room for others and More.
    public static let maxTrailingTabs = 2

    /// The tabs in their default order.
    public let tabs: [Tab]
    /// The declared tab groups (`TabGroup`): each is one item of the bar standing for its
    /// children. A `Tab.group` that names no declared group is a sidebar heading only.
    public let groups: [TabGroup]
    /// The declared group of each grouped tab, by tab id.
    private let declaredGroupByTab: [String: Int]
    /// How the bar looks.
    public let appearance: TabBarAppearance
    /// Position of each tab by id, for models of many tabs (see `index(of:)`).
    private let indexByID: [String: Int]
    /// The tabs' ids in the model's order, searched in turn for models of a few tabs.
    private let ids: [String]
    /// Where the search tab is, if there is one.
    private let searchIndex: Int?
    /// How many tabs sit at the trailing end (pinned, search, prominent).
    let trailingCount: Int
    /// All tab ids in the model's order (a search tab last): every visitor's order until
    /// they customize it. Built once: every request compares against it.
    public let defaultOrder: [String]
    /// The selection of a visitor who has not chosen yet, and the fallback when their
    /// selected tab is removed or disabled. Validation guarantees there is one.
    public let firstEnabledTabID: String
    /// Whether any tab has a placement or may be hidden; false keeps the common model on
    /// its fast paths.
    public let hasPlacements: Bool

    /// Validates and creates a model. Refuses: no tabs, a bad or duplicate id, an empty
    /// title, an unsafe icon or template name, an invalid badge or colour, and a model
    /// whose tabs are all disabled. The first problem found, in reading order, is thrown.
    ///
    /// Declared `groups` are refused for a bad or duplicate id, an id a tab has, an empty
    /// title, an unsafe icon name, no children, children that are not consecutive, and
    /// children that are the search tab, have a placement or allow hiding.
    public init(tabs: [Tab], groups: [TabGroup] = [], appearance: TabBarAppearance = .init())
        throws(TabBarModelError)
    {
        guard !tabs.isEmpty else { throw TabBarModelError(.noTabs) }
        var indexByID: [String: Int] = [:]
        for (offset, tab) in tabs.enumerated() {
            if let error = tab.validationError(index: offset + 1) { throw error }
            if let earlier = indexByID[tab.id] {
                throw TabBarModelError(.duplicateID(tab.id, firstIndex: earlier + 1, secondIndex: offset + 1))
            }
            indexByID[tab.id] = offset
        }
        var groupIDs = Set<String>()
        for (offset, group) in groups.enumerated() {
            if let error = group.validationError(index: offset + 1, tabs: tabs, tabIndex: indexByID) { throw error }
            guard groupIDs.insert(group.id).inserted else { throw TabBarModelError(.duplicateGroupID(group.id)) }
        }
        let searchTabs = tabs.filter { $0.role == .search }
        if searchTabs.count > 1 {
            throw TabBarModelError(.secondSearchTab(searchTabs[1].id, first: searchTabs[0].id))
        }
        let prominentTabs = tabs.filter { $0.role == .prominent }
        if prominentTabs.count > 1 {
            throw TabBarModelError(.secondProminentTab(prominentTabs[1].id, first: prominentTabs[0].id))
        }
        if let error = appearance.validationError() { throw error }
        guard tabs.contains(where: \.isEnabled) else { throw TabBarModelError(.noEnabledTab) }
        let trailingCount = tabs.count(where: \.isTrailing)
        if trailingCount > Self.maxTrailingTabs { throw TabBarModelError(.tooManyPinned(count: trailingCount)) }
        guard tabs.contains(where: { $0.isEnabled && !$0.startsHidden && $0.preferredPlacement != .sidebarOnly })
        else { throw TabBarModelError(.noTabInBar) }
        self.tabs = tabs
        self.groups = groups
        self.trailingCount = trailingCount
        var declaredGroupByTab: [String: Int] = [:]
        for (offset, group) in groups.enumerated() {
            for tab in tabs where tab.group == group.id { declaredGroupByTab[tab.id] = offset }
        }
        self.declaredGroupByTab = declaredGroupByTab
        self.appearance = appearance
        self.indexByID = indexByID
        ids = tabs.map(\.id)
        let searchIndex = tabs.firstIndex { $0.role == .search }
        self.searchIndex = searchIndex
        // Pinned tabs, then the search tab, then the prominent tab, at the trailing end.
        defaultOrder =
            tabs.filter { !$0.isTrailing }.map(\.id) + tabs.filter { $0.preferredPlacement == .pinned }.map(\.id)
            + tabs.filter { $0.role == .search }.map(\.id) + prominentTabs.map(\.id)
        apartTabID = prominentTabs.first?.id ?? searchTabs.first?.id
        firstEnabledTabID =
            tabs.first { $0.isEnabled && !$0.startsHidden && $0.preferredPlacement != .sidebarOnly }?.id ?? tabs[0].id
        hasPlacements = tabs.contains { $0.preferredPlacement != .automatic || $0.isHideable }
    }

    /// Whether the model has a tab with this id (no copy of the tab).
    public func contains(id: String) -> Bool { index(of: id) != nil }

    /// Whether the model has a tab with this id and it is enabled (no copy of the tab).
    public func isEnabled(id: String) -> Bool {
        guard let index = index(of: id) else { return false }
        return tabs[index].isEnabled
    }

    /// The tab with this id, or `nil`.
    public func tab(id: String) -> Tab? {
        index(of: id).map { tabs[$0] }
    }

    /// The tab's 0-based position in the default order, or `nil` for an unknown id.
    ///
    /// Up to `linearSearchLimit` tabs, the ids are compared in turn: a short id is held
    /// inline and compares as two words, while hashing one for the dictionary runs SipHash
    /// over its bytes, and a request looks up tabs several times.
    public func index(of id: String) -> Int? {
        if ids.count <= Self.linearSearchLimit { return ids.firstIndex(of: id) }
        return indexByID[id]
    }

    /// The most tabs whose ids `index(of:)` compares in turn rather than hashes.
    static let linearSearchLimit = 16

    /// The declared group with this id, or `nil`.
    public func group(id: String) -> TabGroup? {
        groups.first { $0.id == id }
    }

    /// The declared group the tab is a child of, or `nil` (no group, or a `Tab.group`
    /// that is a sidebar heading only).
    public func declaredGroup(ofTab id: String) -> TabGroup? {
        declaredGroupByTab[id].map { groups[$0] }
    }

    /// The id of the declared group the tab is a child of (no copy of the group), or `nil`.
    public func declaredGroupID(ofTab id: String) -> String? {
        guard !groups.isEmpty, let index = declaredGroupByTab[id] else { return nil }
        return groups[index].id
    }

    /// The ids of a declared group's children in model order (empty for an unknown group).
    public func children(ofGroup id: String) -> [String] {
        tabs.filter { $0.group == id && declaredGroupByTab[$0.id] != nil }.map(\.id)
    }

    /// How many tabs are children of declared groups.
    public var groupedTabCount: Int { declaredGroupByTab.count }

    /// The search tab, if the model has one (it sits at the trailing end of the bar).
    public var searchTab: Tab? { searchIndex.map { tabs[$0] } }

    /// The search tab's id, if the model has one.
    public var searchTabID: String? { searchIndex.map { tabs[$0].id } }

    /// The tab the floating bar draws apart from the others: the prominent tab, else the
    /// search tab, else none.
    public let apartTabID: String?
}

extension TabBarModel: Hashable {
    /// Two models are equal when their tabs and appearance are; the index is derived.
    public static func == (lhs: TabBarModel, rhs: TabBarModel) -> Bool {
        lhs.tabs == rhs.tabs && lhs.groups == rhs.groups && lhs.appearance == rhs.appearance
    }

    /// Hashes what equality compares: the tabs and the appearance.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(tabs)
        hasher.combine(groups)
        hasher.combine(appearance)
    }
}
