// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The model's tab groups (`Tab.group`), in order, each once.
    public var groupNames: [String] {
        var seen = Set<String>()
        return model.tabs.compactMap(\.group).filter { seen.insert($0).inserted }
    }

    /// Whether the visitor collapsed this group's section of the sidebar.
    public func isGroupCollapsed(_ group: String, in state: TabBarState) -> Bool {
        state.collapsedGroups.contains(group)
    }

    /// The state with the group's sidebar section collapsed or expanded (UIKit's
    /// `UITabGroup` sections of the sidebar); nil when the model has no such group.
    public func settingGroup(_ group: String, collapsed: Bool, in state: TabBarState) -> TabBarState? {
        guard groupNames.contains(group) else { return nil }
        var next = state
        if collapsed {
            if !next.collapsedGroups.contains(group) {
                next.collapsedGroups = (next.collapsedGroups + [group]).sorted()
            }
        } else {
            next.collapsedGroups.removeAll { $0 == group }
        }
        return next.committed(since: state)
    }

    /// The collapsed groups that still exist in the model.
    func reconciledCollapsedGroups(_ groups: [String]) -> [String] {
        guard !groups.isEmpty else { return groups }
        let names = Set(groupNames)
        return groups.allSatisfy(names.contains) ? groups : groups.filter(names.contains)
    }
}
