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

    /// The tab (or declared group) on More's stack, if it is still in More and enabled: a
    /// tap on More shows it again, as `moreNavigationController` keeps its pushed controller.
    public func moreStackTabID(in state: TabBarState) -> String? {
        guard let id = state.locations[Self.moreStackKey], model.isEnabled(id: id) || model.group(id: id) != nil,
            isInCompactMore(id, in: state)
        else { return nil }
        return id
    }

    /// What a tap on More shows when something is on its stack: the tab where it was left,
    /// or for a declared group its own stack (the child where it was left, else its list),
    /// with the state after showing it. Nil when More shows its list.
    public func reopeningMoreStack(in state: TabBarState) -> (state: TabBarState, tabID: String, location: String)? {
        guard let id = moreStackTabID(in: state) else { return nil }
        if model.group(id: id) != nil {
            if let child = groupStackTabID(id, in: state) {
                let location = location(ofTab: child, in: state)
                return (visit(child, location: location, in: state).0, child, location)
            }
            guard let list = showingGroupList(id, in: state) else { return nil }
            return (list, id, "")
        }
        let location = location(ofTab: id, in: state)
        return (visit(id, location: location, in: state).0, id, location)
    }

    /// The state after showing `tabID`: a tab of More goes onto More's stack; a declared
    /// group's child puts its group there when the group is in More.
    public func pushingOntoMore(_ tabID: String, in state: TabBarState) -> TabBarState {
        let unit = model.groups.isEmpty ? tabID : model.declaredGroupID(ofTab: tabID) ?? tabID
        guard isInCompactMore(unit, in: state), state.locations[Self.moreStackKey] != unit else { return state }
        var next = state
        next.locations[Self.moreStackKey] = unit
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
