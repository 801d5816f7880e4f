// SPDX-License-Identifier: Apache-2.0
extension TabBarController {
    /// The key in `TabBarState.locations` that remembers which tab sits on More's stack
    /// (UIKit's `moreNavigationController`); never a tab id, since ids start with a letter.
    public static let moreStackKey = "@more"

    /// Whether `tabID` is listed in More at compact width (not in the phone's bar).
    public func isInCompactMore(_ tabID: String, in state: TabBarState) -> Bool {
        if !model.groups.isEmpty {
            // A declared group is one item: it may be in More, its children never are by themselves.
            guard isListed(tabID, in: state) || model.group(id: tabID) != nil,
                let index = listedUnits(state).firstIndex(where: { $0.id == tabID })
            else { return false }
            return index >= compactBarCount(state)
        }
        guard isListed(tabID, in: state) else { return false }
        let order =
            model.hasPlacements ? effectiveOrder(state).filter { isListed($0, in: state) } : effectiveOrder(state)
        guard let index = order.firstIndex(of: tabID) else { return false }
        return index >= compactBarCount(state)
    }

    /// The tab on More's stack, if it is still in More and enabled: a tap on More
    /// shows it again, as `moreNavigationController` keeps its pushed controller.
    public func moreStackTabID(in state: TabBarState) -> String? {
        guard let id = state.locations[Self.moreStackKey], model.isEnabled(id: id),
            isInCompactMore(id, in: state)
        else { return nil }
        return id
    }

    /// The state after showing `tabID`: a tab of More goes onto More's stack.
    public func pushingOntoMore(_ tabID: String, in state: TabBarState) -> TabBarState {
        guard isInCompactMore(tabID, in: state), state.locations[Self.moreStackKey] != tabID else { return state }
        var next = state
        next.locations[Self.moreStackKey] = tabID
        return next.committed(since: state)
    }

    /// The state with More's stack popped to its list.
    public func poppingMore(_ state: TabBarState) -> TabBarState {
        guard state.locations[Self.moreStackKey] != nil else { return state }
        var next = state
        next.locations[Self.moreStackKey] = nil
        return next.committed(since: state)
    }
}
