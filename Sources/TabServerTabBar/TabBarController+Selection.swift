// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// A tap on a tab (the bar is a form; each item a submit button).
    ///
    /// - Unknown, hidden (`isHidden`) or disabled tab, or `shouldSelect` says no: the state comes back
    ///   unchanged (same version) with `.unknownTab`, `.disabled` or `.vetoed`.
    /// - Another tab: it becomes selected; the outcome carries its remembered location
    ///   so the app can redirect there (each tab keeps its own navigation position).
    /// - The selected tab again: its location is forgotten, `.poppedToRoot`.
    ///
    /// On success a tab with `clearsBadgeOnSelect` gets a `.hidden` badge override and
    /// `didSelect` is told with the new state. As in UIKit, `shouldSelect` and
    /// `didSelect` also run for a re-tap.
    public func select(_ tabID: String, in state: TabBarState) -> (TabBarState, SelectionOutcome) {
        guard let tab = model.tab(id: tabID), !isHidden(tabID, in: state) else { return (state, .unknownTab(tabID)) }
        guard tab.isEnabled else { return (state, .disabled(tabID: tabID)) }
        if case .deny(let message) = hooks.shouldSelect(tab, state) {
            return (state, .vetoed(message: message))
        }

        var next = state
        let outcome: SelectionOutcome
        if selectedTabID(state) == tabID {
            next.locations[tabID] = nil
            outcome = .poppedToRoot(tabID: tabID)
        } else {
            outcome = .selected(tabID: tabID, location: location(ofTab: tabID, in: state))
        }
        markSelected(tab, in: &next)
        next = next.committed(since: state)
        hooks.didSelect(tab, next)
        return (next, outcome)
    }

    /// A GET of one of the tab's canonical URLs: `location` is the path below the
    /// tab's root ("" = the root). The tab becomes selected and the location is
    /// remembered; an invalid location counts as the root.
    ///
    /// No hooks run, since loading a page (reload, bookmark, Back) is not a tap. A
    /// disabled tab's pages are not shown (`.disabled`, the app answers 403) and an
    /// unknown tab gives `.unknownTab` (404); the state is then unchanged. Viewing the
    /// tab shows what its badge announced, so `clearsBadgeOnSelect` applies here too.
    /// The version moves on only if something changed.
    public func visit(_ tabID: String, location: String, in state: TabBarState) -> (TabBarState, SelectionOutcome) {
        guard let tab = model.tab(id: tabID), !isHidden(tabID, in: state) else { return (state, .unknownTab(tabID)) }
        guard tab.isEnabled else { return (state, .disabled(tabID: tabID)) }

        let location = Self.isValidLocation(location) ? location : ""
        var next = state
        next.locations[tabID] = location.isEmpty ? nil : location
        markSelected(tab, in: &next)
        return (next.committed(since: state), .selected(tabID: tabID, location: location))
    }

    /// Records `tab` as selected and hides its badge if it asks for that. Hiding is
    /// only recorded when there is a badge to hide, to keep states small.
    private func markSelected(_ tab: Tab, in state: inout TabBarState) {
        state.selectedTabID = tab.id
        if tab.clearsBadgeOnSelect, effectiveBadge(tabID: tab.id, state: state) != nil {
            state.badgeOverrides[tab.id] = .hidden
        }
    }
}
