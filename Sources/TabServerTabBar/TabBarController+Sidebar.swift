// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// How 1024 px and wider screens show the tabs to this visitor: the appearance's
    /// `regularLayout`, or the visitor's choice where the sidebar toggle is offered.
    public func regularLayout(_ state: TabBarState) -> TabBarAppearance.RegularLayout {
        model.appearance.regularLayout(sidebarHidden: state.isSidebarHidden)
    }

    /// Whether this visitor sees the sidebar at 1024 px and wider.
    public func showsSidebar(_ state: TabBarState) -> Bool {
        regularLayout(state) == .sidebar
    }

    /// The state after the visitor shows (`hidden == false`) or hides the sidebar with
    /// the toggle. The choice is stored even when it equals the appearance's default, so
    /// it stays the visitor's if the app's default changes.
    public func settingSidebarHidden(_ hidden: Bool, in state: TabBarState) -> TabBarState {
        var next = state
        next.isSidebarHidden = hidden
        return next.committed(since: state)
    }
}
