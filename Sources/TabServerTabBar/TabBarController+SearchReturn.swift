// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The key in `TabBarState.locations` that remembers the tab selected before the
    /// search tab (iOS 26: cancelling the search returns there); never a tab id.
    public static let searchReturnKey = "@search"

    /// The state after the search tab is shown: when another tab was selected before,
    /// it is remembered as the one cancelling returns to.
    public func enteringSearch(from previous: String?, in state: TabBarState) -> TabBarState {
        guard let previous, let search = model.searchTab, previous != search.id, model.contains(id: previous),
            state.locations[Self.searchReturnKey] != previous
        else { return state }
        var next = state
        next.locations[Self.searchReturnKey] = previous
        return next.committed(since: state)
    }

    /// The tab cancelling the search returns to, if it still exists and is enabled;
    /// else the first enabled tab that is not the search tab.
    public func searchReturnTabID(in state: TabBarState) -> String? {
        if let id = state.locations[Self.searchReturnKey], let tab = model.tab(id: id), tab.isEnabled,
            tab.role != .search
        {
            return id
        }
        return model.tabs.first { $0.isEnabled && $0.role != .search }?.id
    }
}
