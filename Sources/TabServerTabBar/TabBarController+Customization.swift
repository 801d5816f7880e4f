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
        case .reset:
            order = model.defaultOrder
        case .setOrder(let posted):
            try validate(posted: posted)
            order = posted
        case .moveUp(let id), .moveDown(let id), .moveToBar(let id), .moveToMore(let id):
            order = try move(action, id: id, in: effectiveOrder(state))
        }
        var next = state
        next.order = order == model.defaultOrder ? nil : order
        next.version = state.version &+ 1
        return next
    }

    /// Tells `hooks.willBeginCustomizing` that the customize page opened.
    public func beginCustomizing(_ state: TabBarState) {
        hooks.willBeginCustomizing(state)
    }

    /// Tells `hooks.didEndCustomizing` that the visitor pressed Done, with whether the
    /// effective order differs from when they began (moves that cancel out are no change).
    public func endCustomizing(initial: TabBarState, final: TabBarState) {
        hooks.didEndCustomizing(final, effectiveOrder(initial) != effectiveOrder(final))
    }

    /// The order after a single-tab move.
    private func move(_ action: CustomizationAction, id: String, in order: [String]) throws(CustomizationError)
        -> [String]
    {
        guard model.contains(id: id) else { throw .unknownTab(id) }
        guard !isFixed(id) else { throw .notCustomizable(id) }

        // The customizable tabs in order, and the positions they occupy.
        let slots = order.indices.filter { !isFixed(order[$0]) }
        var movable = slots.map { order[$0] }
        guard let current = movable.firstIndex(of: id), let position = order.firstIndex(of: id) else {
            throw .unknownTab(id)
        }
        let barCount = compactBarCount
        let hasMore = model.tabs.count > TabBarModel.compactBarCapacity

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
        case .reset, .setOrder:
            break
        }

        var result = order
        for (slot, tabID) in zip(slots, movable) {
            result[slot] = tabID
        }
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
        for (index, tab) in model.tabs.enumerated() where !tab.isCustomizable && posted[index] != tab.id {
            throw .invalidOrder(
                reason: "tab \(ErrorText.quoted(tab.id)) is not customizable and must stay at position \(index + 1)")
        }
    }
}
