extension TabBarController {
    /// The visitor's order of all tab ids, bar first then More, valid for the current
    /// model whatever the state holds: a permutation of the model's ids with every
    /// non-customizable tab at its model index.
    ///
    /// Built from the stored order by dropping unknown and repeated ids, inserting tabs
    /// the visitor has not seen at their model index (clamped to the end), then
    /// pinning fixed tabs to their model index while the customizable ones keep their
    /// relative order in the remaining places.
    public func effectiveOrder(_ state: TabBarState) -> [String] {
        guard let stored = state.order else { return model.defaultOrder }
        let tabs = model.tabs

        var seen = Set<String>()
        var order: [String] = []
        order.reserveCapacity(tabs.count)
        for id in stored where model.index(of: id) != nil && seen.insert(id).inserted {
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

    /// Number of tabs in the compact bar (all of them, or 4 when More is needed).
    var compactBarCount: Int {
        TabBarLayout.barCount(forTabCount: model.tabs.count, capacity: TabBarModel.compactBarCapacity)
    }

    /// Number of tabs in the regular bar (all of them, or 7 when More is needed).
    var regularBarCount: Int {
        TabBarLayout.barCount(forTabCount: model.tabs.count, capacity: TabBarModel.regularBarCapacity)
    }
}
