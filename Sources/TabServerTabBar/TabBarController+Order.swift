// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The visitor's order of all tab ids, bar first then More, valid for the current
    /// model whatever the state holds: a permutation of the model's ids with every
    /// non-customizable tab at its model index.
    ///
    /// Built from the stored order by dropping unknown and repeated ids, inserting tabs
    /// the visitor has not seen at their model index (clamped to the end), then
    /// pinning fixed tabs to their model index while the customizable ones keep their
    /// relative order in the remaining places.
    ///
    /// Pinned tabs and the search and prominent tabs are not part of that: they always
    /// come last (the trailing end of the bar): pinned, search, prominent. Hidden tabs keep their
    /// place in the order (showing one puts it back there).
    public func effectiveOrder(_ state: TabBarState) -> [String] {
        // Most visitors never reorder: their order is the model's, built once.
        guard state.order != nil else { return model.defaultOrder }
        guard model.trailingCount > 0 || model.hasPlacements else { return customizedOrder(state, tabs: model.tabs) }
        let trailing = model.defaultOrder.filter { model.tab(id: $0)?.isTrailing == true }
        return customizedOrder(state, tabs: model.tabs.filter { !$0.isTrailing }) + trailing
    }

    private func customizedOrder(_ state: TabBarState, tabs: [Tab]) -> [String] {
        guard let stored = state.order else { return tabs.map(\.id) }
        // (`tabs` never holds the tabs at the trailing end; see above.)

        var seen = Set<String>()
        var order: [String] = []
        order.reserveCapacity(tabs.count)
        let included = Set(tabs.map(\.id))
        for id in stored where included.contains(id) && seen.insert(id).inserted {
            order.append(id)
        }
        for (index, tab) in tabs.enumerated() where !seen.contains(tab.id) {
            order.insert(tab.id, at: min(index, order.count))
        }

        var movable = order.filter { !isFixed($0) }.makeIterator()
        // A declared group's children fill their group's model places, in the visitor's
        // order where the group allows reordering.
        var groupOrders: [String: IndexingIterator<[String]>] = [:]
        for group in model.groups {
            let children =
                group.allowsReordering
                ? order.filter { model.declaredGroupID(ofTab: $0) == group.id } : model.children(ofGroup: group.id)
            groupOrders[group.id] = children.makeIterator()
        }
        var result: [String] = []
        result.reserveCapacity(tabs.count)
        for tab in tabs {
            if let group = model.declaredGroupID(ofTab: tab.id), let next = groupOrders[group]?.next() {
                result.append(next)
            } else if tab.isFixedInPlace {
                result.append(tab.id)
            } else if let next = movable.next() {
                result.append(next)
            }
        }
        return result
    }

    /// Number of the visitor's listed tabs (`isListed`) in the compact bar before More
    /// (all of them, or 4 when More is needed, fewer by the tabs at the trailing end:
    /// pinned tabs, the search tab and the prominent tab keep their own places).
    func compactBarCount(_ state: TabBarState) -> Int {
        let (listed, trailing) = listedCounts(state)
        return TabBarLayout.barCount(forTabCount: listed, capacity: TabBarModel.compactBarCapacity - trailing)
    }

    /// Number of listed tabs in the regular bar (all of them, or 7 when More is needed).
    func regularBarCount(_ state: TabBarState) -> Int {
        let (listed, trailing) = listedCounts(state)
        return TabBarLayout.barCount(forTabCount: listed, capacity: TabBarModel.regularBarCapacity - trailing)
    }

    /// How many tabs the bar and More share, and how many sit at the trailing end.
    private func listedCounts(_ state: TabBarState) -> (listed: Int, trailing: Int) {
        // A declared group is one item of the bar, however many children it has.
        let groups = model.groups.count - model.groupedTabCount
        guard model.hasPlacements else {
            return (model.tabs.count - model.trailingCount + groups, model.trailingCount)
        }
        return (model.tabs.count(where: { isListed($0.id, in: state) }) + model.groups.count, model.trailingCount)
    }
}
