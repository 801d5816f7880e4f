// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The badge this visitor sees on a tab: their override if they have a valid one
    /// (`.hidden` → none), otherwise the model's badge. `nil` for an unknown tab.
    public func effectiveBadge(tabID: String, state: TabBarState) -> Badge? {
        guard let tab = model.tab(id: tabID) else { return nil }
        switch state.badgeOverrides[tabID] {
        case .hidden:
            return nil
        case .badge(let badge) where badge.isValid:
            return badge
        case .badge, nil:
            return tab.badge
        }
    }

    /// Sets (or with `nil` removes) this visitor's badge override for a tab, e.g. their
    /// own unread count. An unknown tab or an invalid badge (see
    /// `Badge.validationProblem`; its colour would reach a `style` attribute) leaves
    /// the state unchanged. The version moves on only if something changed.
    public func setBadge(_ badge: BadgeOverride?, forTab id: String, in state: TabBarState) -> TabBarState {
        guard model.contains(id: id) else { return state }
        if case .badge(let value) = badge, !value.isValid { return state }
        var next = state
        next.badgeOverrides[id] = badge
        return next.committed(since: state)
    }
}
