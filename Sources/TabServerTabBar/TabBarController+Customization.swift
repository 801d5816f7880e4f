// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// Applies one customize-page edit and returns the new state, whose version is
    /// exactly one more; on error the caller keeps the old state untouched.
    ///
    /// `expectedVersion` is the version the form was rendered with. If the state has
    /// moved on since (another window), the edit is refused with `.stale` before
    /// anything else is looked at, so an edit never applies to an order the visitor
    /// did not see.
    ///
    /// Moves work on the customizable tabs only: fixed tabs keep their model index and
    /// the others fill the remaining places, so "up" passes the nearest customizable
    /// neighbour, skipping fixed tabs. Bar and More are those of the compact width
    /// (4 + More when there are more than 5 tabs), the stricter of the two widths.
    public func apply(
        _ action: CustomizationAction, to state: TabBarState, expectedVersion: Int
    ) throws(CustomizationError) -> TabBarState {
        guard state.version == expectedVersion else {
            throw .stale(currentVersion: state.version)
        }
        let order: [String]
        switch action {
        case .hide(let id), .show(let id):
            var next = try settingHidden(id, action == .hide(id), in: state)
            next.version = state.version &+ 1
            return next
        case .reset:
            order = model.defaultOrder
        case .setOrder(let given):
            // A declared group's row stands for its children, in their current order.
            let posted =
                model.groups.isEmpty
                ? given : given.flatMap { model.group(id: $0) != nil ? children(ofGroup: $0, in: state) : [$0] }
            let complete = try completed(posted, state: state)
            try validate(posted: complete)
            order = complete
        case .moveUp(let id), .moveDown(let id), .moveToBar(let id), .moveToMore(let id):
            if let group = model.declaredGroup(ofTab: id) {
                // A child moves among its group's children (UITabGroup's allowsReordering).
                order = try movingInGroup(action, id: id, group: group, in: effectiveOrder(state))
            } else {
                order = try move(action, id: id, in: effectiveOrder(state), state: state)
            }
        }
        var next = state
        next.order = order == model.defaultOrder ? nil : order
        if action == .reset { next.hiddenChoices = [:] }
        next.version = state.version &+ 1
        return next
    }

    /// Tells `hooks.willBeginCustomizing` that the customize page opened.
    public func beginCustomizing(_ state: TabBarState) {
        hooks.willBeginCustomizing(state)
    }

    /// Tells `hooks.didEndCustomizing` that the visitor pressed Done, with whether the
    /// arrangement (order and hidden tabs) differs from when they began (steps that cancel
    /// out are no change).
    public func endCustomizing(initial: TabBarState, final: TabBarState) {
        hooks.didEndCustomizing(final, arrangement(initial) != arrangement(final))
    }

    /// The order after a single-tab move.
    private func move(_ action: CustomizationAction, id: String, in fullOrder: [String], state: TabBarState)
        throws(CustomizationError) -> [String]
    {
        guard model.contains(id: id) else { throw .unknownTab(id) }
        guard !isFixed(id) else { throw .notCustomizable(id) }
        guard !isHidden(id, in: state) else { throw .cannotMove(id, reason: .isHidden) }

        // The tabs of the bar and More (not hidden, not sidebar-only, not at the trailing
        // end), their customizable ones in order, and the positions those occupy.
        // A declared group is one unit of the order there (fixed, at its model place).
        let units =
            model.groups.isEmpty
            ? fullOrder.indices.filter { isListed(fullOrder[$0], in: state) }.map { ($0, fullOrder[$0]) }
            : listedUnits(state).map { ($0.index, $0.id) }
        let listedIndices = units.map(\.0)
        let order = units.map(\.1)
        let slots = order.indices.filter { !isFixed(order[$0]) }
        var movable = slots.map { order[$0] }
        guard let current = movable.firstIndex(of: id), let position = order.firstIndex(of: id) else {
            throw .unknownTab(id)
        }
        let barCount = compactBarCount(state)
        let hasMore = order.count > barCount

        switch action {
        case .moveUp:
            guard current > 0 else { throw .cannotMove(id, reason: .alreadyFirst) }
            movable.swapAt(current, current - 1)
        case .moveDown:
            guard current < movable.count - 1 else { throw .cannotMove(id, reason: .alreadyLast) }
            movable.swapAt(current, current + 1)
        case .moveToBar:
            guard hasMore else { throw .cannotMove(id, reason: .noMoreList) }
            guard position >= barCount else { throw .cannotMove(id, reason: .alreadyInBar) }
            // The last customizable bar place; its tab slides to the first More place.
            guard let target = slots.lastIndex(where: { $0 < barCount }) else {
                throw .cannotMove(id, reason: .noBarSlot)
            }
            movable.remove(at: current)
            movable.insert(id, at: target)
        case .moveToMore:
            guard hasMore else { throw .cannotMove(id, reason: .noMoreList) }
            guard position < barCount else { throw .cannotMove(id, reason: .alreadyInMore) }
            guard let target = slots.firstIndex(where: { $0 >= barCount }) else {
                throw .cannotMove(id, reason: .noMoreSlot)
            }
            movable.swapAt(current, target)
        case .reset, .setOrder, .hide, .show:
            break
        }

        var result = order
        for (slot, tabID) in zip(slots, movable) {
            result[slot] = tabID
        }
        var full = fullOrder
        for (index, tabID) in zip(listedIndices, result) where model.group(id: tabID) == nil {
            full[index] = tabID
        }
        return full
    }

    /// A posted order of the tabs the Edit page lists, with the tabs it does not list
    /// (hidden, sidebar-only, pinned, search, prominent) put back at their places in the visitor's
    /// order. An order that names every tab is taken as it is.
    private func completed(_ posted: [String], state: TabBarState) throws(CustomizationError) -> [String] {
        guard model.hasPlacements || model.trailingCount > 0 || !model.groups.isEmpty else { return posted }
        let named = Set(posted)
        let current = effectiveOrder(state)
        let left = current.filter { !named.contains($0) }
        guard !left.isEmpty else { return posted }
        if let listed = left.first(where: { isListed($0, in: state) }) {
            throw .invalidOrder(reason: "tab \(ErrorText.quoted(listed)) is missing")
        }
        let kept = Set(left)
        var postedIDs = posted.makeIterator()
        var result: [String] = []
        for id in current {
            if kept.contains(id) {
                result.append(id)
            } else if let next = postedIDs.next() {
                result.append(next)
            }
        }
        while let extra = postedIDs.next() { result.append(extra) }
        return result
    }

    /// Checks a posted full order: each id once, all known, none missing, fixed tabs
    /// at their model position.
    private func validate(posted: [String]) throws(CustomizationError) {
        var seen = Set<String>()
        for id in posted {
            guard seen.insert(id).inserted else { throw .duplicateInOrder(id) }
        }
        for id in posted where !model.contains(id: id) {
            throw .unknownTab(id)
        }
        if let missing = model.tabs.first(where: { !seen.contains($0.id) }) {
            throw .invalidOrder(reason: "tab \(ErrorText.quoted(missing.id)) is missing")
        }
        let expected = model.defaultOrder
        for (index, id) in expected.enumerated() where isFixed(id) && posted[index] != id {
            if let group = model.declaredGroup(ofTab: id) {
                // Its group's places: any child of the group where it allows reordering.
                if group.allowsReordering, model.declaredGroupID(ofTab: posted[index]) == group.id { continue }
                let misplaced = ErrorText.quoted(posted[index])
                throw .invalidOrder(reason: "tab \(misplaced) is not in group \(ErrorText.quoted(group.id))'s place")
            }
            let tab = model.tabs[model.index(of: id) ?? 0]
            throw .invalidOrder(
                reason: "tab \(ErrorText.quoted(tab.id)) is not customizable and must stay at position \(index + 1)")
        }
    }
}
