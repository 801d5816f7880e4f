// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// What to render for this visitor: every tab in their order with its selection,
    /// effective badge and whether it sits in the bar at each width.
    public func layout(_ state: TabBarState) -> TabBarLayout {
        let selected = selectedTabID(state)
        let compactCount = compactBarCount
        let regularCount = regularBarCount
        var items: [TabBarLayout.Item] = []
        items.reserveCapacity(model.tabs.count)
        for (offset, id) in effectiveOrder(state).enumerated() {
            guard let tab = model.tab(id: id) else { continue }
            items.append(
                TabBarLayout.Item(
                    tab: tab,
                    position: offset + 1,
                    isSelected: id == selected,
                    badge: effectiveBadge(tabID: id, state: state),
                    // The search tab keeps its own place at the end of the bar.
                    inCompactBar: offset < compactCount || tab.role == .search,
                    inRegularBar: offset < regularCount || tab.role == .search))
        }
        return TabBarLayout(items: items)
    }
}
