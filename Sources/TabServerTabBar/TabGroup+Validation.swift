// SPDX-License-Identifier: Apache-2.0
extension TabGroup {
    /// The first problem with this group and its children (`tabs`, the model's tabs), or
    /// nil; `index` is the group's 1-based position in `groups`.
    func validationError(index: Int, tabs: [Tab], tabIndex: [String: Int]) -> TabBarModelError? {
        guard Tab.isValidID(id) else { return TabBarModelError(.invalidGroupID(id, index: index)) }
        if tabIndex[id] != nil { return TabBarModelError(.invalidGroup("a tab has the same id", groupID: id)) }
        guard title.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) else {
            return TabBarModelError(.invalidGroup("empty title", groupID: id))
        }
        for name in [icon] + (selectedIcon.map { [$0] } ?? []) where !PathSyntax.isValidFileName(name) {
            return TabBarModelError(
                .invalidGroup(
                    "invalid icon file name \(ErrorText.quoted(name)) (use a relative path of letters, digits, '.', '_', '-')",
                    groupID: id))
        }
        let members = tabs.indices.filter { tabs[$0].group == id }
        guard let first = members.first, let last = members.last else {
            return TabBarModelError(.emptyGroup(id))
        }
        if last - first + 1 != members.count, let outside = (first...last).first(where: { tabs[$0].group != id }) {
            return TabBarModelError(.scatteredGroup(id, tabID: tabs[outside].id))
        }
        for offset in members {
            let tab = tabs[offset]
            if tab.role != .standard || tab.preferredPlacement != .automatic || tab.isHideable {
                return TabBarModelError(
                    .invalidGroup(
                        "tab \(ErrorText.quoted(tab.id)) is a child of the group, which is one item of the bar: "
                            + "its children cannot be the search or prominent tab, have a preferredPlacement or allow hiding",
                        groupID: id))
            }
        }
        return nil
    }
}
