// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The prefix of the keys in `TabBarState.locations` that remember which child sits on
    /// a declared group's stack (`"@group:<id>"` → the child's id); never a tab id.
    public static let groupStackPrefix = "@group:"

    /// The key remembering the stack of the group `groupID`.
    public static func groupStackKey(_ groupID: String) -> String { groupStackPrefix + groupID }

    /// The declared group's children in this visitor's order (their Edit order where the
    /// group allows reordering, else the model's).
    public func children(ofGroup groupID: String, in state: TabBarState) -> [String] {
        let children = model.children(ofGroup: groupID)
        guard state.order != nil, children.count > 1 else { return children }
        return effectiveOrder(state).filter { model.declaredGroupID(ofTab: $0) == groupID }
    }

    /// The declared group whose child is selected, if any: that group's item is the selected one of the bar.
    public func selectedGroupID(_ state: TabBarState) -> String? {
        guard !model.groups.isEmpty else { return nil }
        return model.declaredGroupID(ofTab: selectedTabID(state))
    }

    /// The child on the group's stack, if it is still an enabled child of that group: a
    /// tap on the group shows it again, as a `UITabGroup`'s navigation keeps its child.
    public func groupStackTabID(_ groupID: String, in state: TabBarState) -> String? {
        guard let id = state.locations[Self.groupStackKey(groupID)], model.isEnabled(id: id),
            model.declaredGroupID(ofTab: id) == groupID
        else { return nil }
        return id
    }

    /// The badge of a declared group's item (and of its heading in the sidebar): the sum
    /// of its children's counts, else a dot when a child shows another badge; nil when no
    /// child shows one. A visitor opening the group sees which child it comes from.
    public func groupBadge(_ groupID: String, in state: TabBarState) -> Badge? {
        var total = 0
        var other = false
        for child in model.children(ofGroup: groupID) {
            guard let badge = effectiveBadge(tabID: child, state: state) else { continue }
            if case .count(let count) = badge.value { total += count } else { other = true }
        }
        if total > 0 { return .count(total) }
        return other ? .dot() : nil
    }

    /// The state after showing the child `tabID`'s page: it goes onto its group's stack.
    /// A tab of no declared group leaves the state as it is.
    public func pushingOntoGroup(_ tabID: String, in state: TabBarState) -> TabBarState {
        guard !model.groups.isEmpty, let group = model.declaredGroup(ofTab: tabID) else { return state }
        let key = Self.groupStackKey(group.id)
        guard state.locations[key] != tabID else { return state }
        var next = state
        next.locations[key] = tabID
        return next.committed(since: state)
    }

    /// The state while the group's page (the list of its children) shows: its stack is
    /// empty and the group is the selected item (one of its children is the selected tab,
    /// the one selected last if it is one, else the first enabled one). Nil for an unknown
    /// group or one without an enabled child.
    public func showingGroupList(_ groupID: String, in state: TabBarState) -> TabBarState? {
        guard model.group(id: groupID) != nil else { return nil }
        var next = state
        next.locations[Self.groupStackKey(groupID)] = nil
        if model.declaredGroupID(ofTab: selectedTabID(state)) != groupID {
            guard let child = children(ofGroup: groupID, in: state).first(where: model.isEnabled(id:)) else {
                return nil
            }
            next.selectedTabID = child
        }
        return next.committed(since: state)
    }

    /// A tap on a declared group's bar item (or its row in More):
    ///
    /// - the group is already selected: its stack pops to the list, `.poppedToRoot(group)`;
    /// - a child is on its stack: that child is selected where it was left,
    ///   `.selected(child, location)`;
    /// - else the group's list shows, `.selected(group, "")`.
    ///
    /// Nil for an unknown group. No hooks run for the group itself; its children's do
    /// when they are selected from the list.
    public func selectGroup(_ groupID: String, in state: TabBarState) -> (TabBarState, SelectionOutcome)? {
        guard model.group(id: groupID) != nil else { return nil }
        if selectedGroupID(state) == groupID {
            guard let next = showingGroupList(groupID, in: state) else { return nil }
            return (next, .poppedToRoot(tabID: groupID))
        }
        if let child = groupStackTabID(groupID, in: state) {
            let location = location(ofTab: child, in: state)
            let (visited, _) = visit(child, location: location, in: state)
            return (visited, .selected(tabID: child, location: location))
        }
        guard let next = showingGroupList(groupID, in: state) else { return (state, .disabled(tabID: groupID)) }
        return (next, .selected(tabID: groupID, location: ""))
    }

    /// The visitor's order of bar-and-More units: each tab, with a declared group's
    /// children standing as the group's id once, at its first child's place.
    func listedUnits(_ state: TabBarState) -> [(index: Int, id: String)] {
        let order = effectiveOrder(state)
        var units: [(index: Int, id: String)] = []
        units.reserveCapacity(order.count)
        var previousGroup: String? = nil
        for (index, id) in order.enumerated() {
            if let group = model.declaredGroupID(ofTab: id) {
                if group != previousGroup { units.append((index, group)) }
                previousGroup = group
                continue
            }
            previousGroup = nil
            if isListed(id, in: state) { units.append((index, id)) }
        }
        return units
    }

    /// The order after moving a child one place up or down within its declared group.
    func movingInGroup(_ action: CustomizationAction, id: String, group: TabGroup, in order: [String])
        throws(CustomizationError) -> [String]
    {
        guard group.allowsReordering else { throw .notCustomizable(id) }
        let slots = order.indices.filter { model.declaredGroupID(ofTab: order[$0]) == group.id }
        guard let current = slots.firstIndex(where: { order[$0] == id }) else { throw .unknownTab(id) }
        var result = order
        switch action {
        case .moveUp:
            guard current > 0 else { throw .cannotMove(id, reason: .alreadyFirst) }
            result.swapAt(slots[current], slots[current - 1])
        case .moveDown:
            guard current < slots.count - 1 else { throw .cannotMove(id, reason: .alreadyLast) }
            result.swapAt(slots[current], slots[current + 1])
        default:
            throw .notCustomizable(id)
        }
        return result
    }
}
