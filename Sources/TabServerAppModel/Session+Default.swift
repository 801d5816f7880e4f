// SPDX-License-Identifier: Apache-2.0
import TabServerSessions
import TabServerTabBar

extension Session {
    /// Whether this session holds nothing a fresh one would not: the first enabled tab
    /// selected (or none chosen) at its root, every tab at its root, the model's order,
    /// no badge hidden or set, no sidebar choice, no language chosen, no notice pending, no
    /// customization under way, no value of the app's and no push subscription. Such a visitor needs no stored row and no cookie: the
    /// next request without one shows exactly the same. The state's version does not
    /// count (it only numbers changes).
    package func isDefault(for controller: TabBarController) -> Bool {
        language == nil && notice == nil && customizationStart == nil && state.order == nil && appValues.isEmpty
            && pushSubscriptions.isEmpty
            && state.locations.values.allSatisfy(\.isEmpty) && state.badgeOverrides.isEmpty
            && state.isSidebarHidden == nil && state.hiddenChoices.isEmpty && state.collapsedGroups.isEmpty
            && (state.selectedTabID == nil || state.selectedTabID == controller.model.firstEnabledTabID)
    }

}
