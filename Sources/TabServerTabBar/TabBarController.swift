// SPDX-License-Identifier: Apache-2.0
/// The tab bar controller: the shared model plus the app's hooks. It holds no
/// visitor state; each visitor's `TabBarState` goes in and a new one comes out, so
/// one controller serves every request at once and every rule is a pure function.
///
/// The UIKit behaviours it reproduces: selection with a veto and pop-to-root on
/// re-tap (`select`), one navigation position per tab (`visit`), 4 + More at compact
/// width and 7 + More at regular width (`layout`), More → Edit customization with
/// fixed tabs (`apply`), per-visitor badges (`setBadge`) and runtime model changes
/// (`reconciled`).
///
/// ```swift
/// let controller = TabBarController(model: try TabBarModel(tabs: [
///     Tab(id: "home", title: "Home", icon: "home.svg", isCustomizable: false),
///     Tab(id: "music", title: "Music", icon: "music.svg", badge: .count(3),
///         clearsBadgeOnSelect: true),
/// ]))
/// var state = controller.reconciled(sessionState)          // after loading a session
/// let (next, outcome) = controller.select("music", in: state) // POST select
/// if case .selected(let tab, let location) = outcome {
///     state = next                                          // save, then 303 to
///     redirect(to: "/tabs/\(tab)/\(location)")              // the remembered place
/// }
/// let bar = controller.layout(state)                        // render the bar
/// ```
public struct TabBarController: Sendable {
    /// The shared tab definition. Replacing it is UIKit's `setViewControllers`:
    /// existing states keep working and catch up via `reconciled(_:)`.
    public var model: TabBarModel
    /// The app's delegate callbacks.
    public var hooks: TabBarHooks

    /// Creates a controller for `model`; hooks default to allowing everything.
    public init(model: TabBarModel, hooks: TabBarHooks = .init()) {
        self.model = model
        self.hooks = hooks
    }

    /// The visitor's selected tab: their choice if that tab still exists and is
    /// enabled, otherwise the model's first enabled tab. Always a usable tab.
    public func selectedTabID(_ state: TabBarState) -> String {
        if let id = state.selectedTabID, model.isEnabled(id: id), !isHidden(id, in: state) {
            return id
        }
        guard model.hasPlacements else { return model.firstEnabledTabID }
        return firstShownTabID(state)
    }

    /// The first enabled tab the visitor's bar shows (or the model's first enabled tab).
    func firstShownTabID(_ state: TabBarState) -> String {
        if !isHidden(model.firstEnabledTabID, in: state) { return model.firstEnabledTabID }
        return effectiveOrder(state).first { id in
            model.isEnabled(id: id) && !isHidden(id, in: state) && model.tab(id: id)?.preferredPlacement != .sidebarOnly
        } ?? model.firstEnabledTabID
    }

    /// Whether the tab with this id exists and may not be moved by the visitor.
    /// A declared group's children (and the group itself) keep the group's model place
    /// in the bar's order; where the group allows reordering they move among themselves.
    func isFixed(_ id: String) -> Bool {
        guard let index = model.index(of: id) else { return model.group(id: id) != nil }
        return model.tabs[index].isFixedInPlace || model.declaredGroupID(ofTab: id) != nil
    }

    /// Whether the tab is one of the bar-and-More tabs for this visitor: shown, not
    /// sidebar-only, not at the trailing end (pinned, search).
    /// A child of a declared group is not: its group stands for it.
    func isListed(_ id: String, in state: TabBarState) -> Bool {
        guard let tab = model.tab(id: id), model.declaredGroupID(ofTab: id) == nil else { return false }
        return !tab.isTrailing && tab.preferredPlacement != .sidebarOnly && !isHidden(id, in: state)
    }
}
