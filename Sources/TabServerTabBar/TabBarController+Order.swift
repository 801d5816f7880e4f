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
    /// A search tab is not part of that: it always comes last (the trailing end of the bar).
    public func effectiveOrder(_ state: TabBarState) -> [String] {
        // Most visitors never reorder: their order is the model's, built once.
        guard state.order != nil else { return model.defaultOrder }
        guard let search = model.searchTab else { return customizedOrder(state, tabs: model.tabs) }
        return customizedOrder(state, tabs: model.tabs.filter { $0.role != .search }) + [search.id]
    }

    private func customizedOrder(_ state: TabBarState, tabs: [Tab]) -> [String] {
        guard let stored = state.order else { return tabs.map(\.id) }
        // (`tabs` never holds the search tab when the model has one; see above.)

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
        var result: [String] = []
        result.reserveCapacity(tabs.count)
        for tab in tabs {
            if !tab.isCustomizable {
                result.append(tab.id)
            } else if let next = movable.next() {
                result.append(next)
            }
        }
        return result
    }

    /// Number of tabs in the compact bar before More (all of them, or 4 when More is
    /// needed), not counting a search tab, which keeps its own place at the end.
    var compactBarCount: Int {
        let search = model.searchTabID == nil ? 0 : 1
        return TabBarLayout.barCount(
            forTabCount: model.tabs.count - search, capacity: TabBarModel.compactBarCapacity - search)
    }

    /// Number of tabs in the regular bar (all of them, or 7 when More is needed).
    var regularBarCount: Int {
        let search = model.searchTabID == nil ? 0 : 1
        return TabBarLayout.barCount(
            forTabCount: model.tabs.count - search, capacity: TabBarModel.regularBarCapacity - search)
    }
}
