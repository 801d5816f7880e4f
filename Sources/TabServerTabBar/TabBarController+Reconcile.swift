// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The state brought in line with the current model, for a state saved under an
    /// older one (tabs added, removed, reordered, made fixed or disabled). Call it
    /// after loading a session; it never fails and never loses what still applies.
    ///
    /// - the order becomes `effectiveOrder(_:)`, or `nil` when that is the default;
    /// - hide and show choices of unknown tabs, of tabs that no longer allow hiding, and
    ///   those equal to the model's default are dropped (so a tab made non-hideable shows);
    /// - collapsed sidebar groups the model no longer has are dropped;
    /// - a selected tab that was removed, disabled or is hidden falls back to the first shown tab;
    /// - a declared group's children keep their relative order only while the group allows
    ///   reordering (the order above);
    /// - locations and badge overrides of unknown tabs are dropped (More's stack too, when
    ///   it names one, and a group's stack naming a tab no longer its child), as are invalid or
    ///   root ("") locations and overrides with an invalid badge.
    ///
    /// The version moves on only if something changed, so reconciling an up-to-date
    /// state does not make open customize forms stale.
    public func reconciled(_ state: TabBarState) -> TabBarState {
        var next = state
        // Whether anything may have changed: most states are reconciled already, and
        // comparing two whole states (their dictionaries hash every key) would run on every
        // request; only a state that may differ is compared (`committed`).
        var mayDiffer = false
        if state.order != nil {
            let order = effectiveOrder(state)
            next.order = order == model.defaultOrder ? nil : order
            mayDiffer = true
        }
        if !state.hiddenChoices.isEmpty {
            next.hiddenChoices = reconciledHiddenChoices(state.hiddenChoices)
            mayDiffer = true
        }
        if !state.collapsedGroups.isEmpty {
            next.collapsedGroups = reconciledCollapsedGroups(state.collapsedGroups)
            mayDiffer = true
        }
        if let selected = state.selectedTabID, !model.isEnabled(id: selected) || isHidden(selected, in: next) {
            next.selectedTabID = firstShownTabID(next)
            mayDiffer = true
        }
        // Filtered only when something goes: a new dictionary per request would cost more
        // than the check. (Methods, not stored closures: a closure kept in a constant
        // copies the controller, model and all, on every request.)
        if !state.locations.allSatisfy({ keepsLocation($0.key, $0.value) }) {
            next.locations = state.locations.filter { keepsLocation($0.key, $0.value) }
            mayDiffer = true
        }
        if !state.badgeOverrides.allSatisfy({ keepsBadge($0.key, $0.value) }) {
            next.badgeOverrides = state.badgeOverrides.filter { keepsBadge($0.key, $0.value) }
            mayDiffer = true
        }
        return mayDiffer ? next.committed(since: state) : state
    }

    /// Whether reconciling keeps a location of the visitor's state.
    private func keepsLocation(_ id: String, _ location: String) -> Bool {
        // More's stack names a tab or a declared group; the search's return a tab (see `moreStackKey`).
        if id == Self.moreStackKey { return model.contains(id: location) || model.group(id: location) != nil }
        if id == Self.searchReturnKey { return model.contains(id: location) }
        // A declared group's stack names one of its children.
        if id.hasPrefix(Self.groupStackPrefix) {
            return model.declaredGroupID(ofTab: location) == String(id.dropFirst(Self.groupStackPrefix.count))
        }
        return model.contains(id: id) && !location.isEmpty && Self.isValidLocation(location)
    }

    /// Whether reconciling keeps a badge override of the visitor's state.
    private func keepsBadge(_ id: String, _ override: BadgeOverride) -> Bool {
        guard model.contains(id: id) else { return false }
        if case .badge(let badge) = override { return badge.isValid }
        return true
    }
}
