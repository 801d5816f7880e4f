// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// Whether the tab is hidden for this visitor: their choice in Edit where the tab
    /// allows hiding, else the model's `isHiddenByDefault` (or `.optional`). Tabs that do
    /// not allow hiding are never hidden, whatever the state holds.
    public func isHidden(_ id: String, in state: TabBarState) -> Bool {
        guard model.hasPlacements, let tab = model.tab(id: id), tab.isHideable else { return false }
        return state.hiddenChoices[id] ?? tab.startsHidden
    }

    /// The ids of the tabs hidden for this visitor, in model order.
    public func hiddenTabIDs(_ state: TabBarState) -> [String] {
        guard model.hasPlacements else { return [] }
        return model.tabs.filter { isHidden($0.id, in: state) }.map(\.id)
    }

    /// Whether a visitor can reach the tab from the bar, More or the sidebar: it exists
    /// and is not hidden for them.
    public func isShown(_ id: String, in state: TabBarState) -> Bool {
        model.contains(id: id) && !isHidden(id, in: state)
    }

    /// The visitor's arrangement as a list of words: their order, then each hidden tab
    /// marked with `!`. What a customize form's version fingerprints, so a hide in
    /// another window makes an open Edit page stale too.
    public func arrangement(_ state: TabBarState) -> [String] {
        let order = effectiveOrder(state)
        guard model.hasPlacements else { return order }
        return order + hiddenTabIDs(state).map { "!" + $0 }
    }

    /// The state with the tab hidden (`hidden` true) or shown again. Throws for an unknown
    /// tab, one that does not allow hiding, one already so, and for hiding the last
    /// enabled tab the bar would show.
    func settingHidden(_ id: String, _ hidden: Bool, in state: TabBarState) throws(CustomizationError) -> TabBarState {
        guard let tab = model.tab(id: id) else { throw .unknownTab(id) }
        guard tab.isHideable else { throw .notHideable(id) }
        guard isHidden(id, in: state) != hidden else {
            throw .cannotHide(id, reason: hidden ? .alreadyHidden : .alreadyShown)
        }
        var next = state
        next.hiddenChoices[id] = hidden == tab.startsHidden ? nil : hidden
        if hidden {
            let remaining = model.tabs.contains {
                $0.isEnabled && $0.preferredPlacement != .sidebarOnly && !isHidden($0.id, in: next)
            }
            guard remaining else { throw .cannotHide(id, reason: .lastShown) }
        }
        return next
    }

    /// The hide and show choices that still apply under the current model: unknown tabs,
    /// tabs that no longer allow hiding and choices equal to the default are dropped.
    func reconciledHiddenChoices(_ choices: [String: Bool]) -> [String: Bool] {
        let keeps = { (id: String, hidden: Bool) -> Bool in
            guard let tab = model.tab(id: id), tab.isHideable else { return false }
            return hidden != tab.startsHidden
        }
        return choices.allSatisfy(keeps) ? choices : choices.filter(keeps)
    }
}
