// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// What to render for this visitor: every tab they can reach, in their order, with its
    /// selection, effective badge and whether it sits in the bar at each width. Hidden
    /// tabs are left out; sidebar-only tabs are in neither bar nor More (the sidebar
    /// shows them); pinned tabs, the search tab and the prominent tab are always in the
    /// bar, at its end.
    public func layout(_ state: TabBarState) -> TabBarLayout {
        let selected = selectedTabID(state)
        let compactCount = compactBarCount(state)
        let regularCount = regularBarCount(state)
        var items: [TabBarLayout.Item] = []
        items.reserveCapacity(model.tabs.count)
        var listed = 0
        let selectedGroup = selectedGroupID(state)
        var previousGroup: String? = nil
        for id in effectiveOrder(state) {
            guard let tab = model.tab(id: id), !isHidden(id, in: state) else { continue }
            let group = model.groups.isEmpty ? nil : model.declaredGroup(ofTab: id)
            if let group, group.id != previousGroup {
                // A declared group's item, at its first child's place: one item of the bar and More.
                let offset = listed
                listed += 1
                var groupTab = group.barTab
                // Dimmed, as a disabled tab, when none of its children can be opened.
                groupTab.isEnabled = model.children(ofGroup: group.id).contains(where: model.isEnabled(id:))
                var item = TabBarLayout.Item(
                    tab: groupTab, position: items.count + 1, isSelected: group.id == selectedGroup,
                    badge: groupBadge(group.id, in: state),
                    inCompactBar: offset < compactCount, inRegularBar: offset < regularCount)
                item.isGroup = true
                items.append(item)
            }
            previousGroup = group?.id
            if let group {
                var item = TabBarLayout.Item(
                    tab: tab, position: items.count + 1, isSelected: id == selected,
                    badge: effectiveBadge(tabID: id, state: state), inCompactBar: false, inRegularBar: false)
                item.groupID = group.id
                items.append(item)
                continue
            }
            let sidebarOnly = tab.preferredPlacement == .sidebarOnly
            let offset = listed
            if !tab.isTrailing && !sidebarOnly { listed += 1 }
            items.append(
                TabBarLayout.Item(
                    tab: tab,
                    position: items.count + 1,
                    isSelected: id == selected,
                    badge: effectiveBadge(tabID: id, state: state),
                    // Pinned, search and prominent tabs keep their own places at the end of the bar.
                    inCompactBar: !sidebarOnly && (offset < compactCount || tab.isTrailing),
                    inRegularBar: !sidebarOnly && (offset < regularCount || tab.isTrailing)))
        }
        return TabBarLayout(items: items)
    }
}
