// SPDX-License-Identifier: Apache-2.0
/// What a selection or visit did, so the app knows where to redirect or what to show.
public enum SelectionOutcome: Sendable, Hashable {
    /// Switched to (or stayed on) `tabID`; `location` is where to go below the tab's
    /// root ("" = the root), the tab's remembered position for a select.
    case selected(tabID: String, location: String)
    /// The selected tab was selected again: its remembered location is forgotten and
    /// the visitor goes to its root, like UIKit popping the navigation stack.
    case poppedToRoot(tabID: String)
    /// `shouldSelect` refused; the state is unchanged and `message` says why.
    case vetoed(message: String)
    /// The tab exists but is disabled; the state is unchanged.
    case disabled(tabID: String)
    /// No tab has this id; the state is unchanged.
    case unknownTab(String)

    /// Whether the state may have changed (the selection went through).
    public var isSuccess: Bool {
        switch self {
        case .selected, .poppedToRoot: return true
        case .vetoed, .disabled, .unknownTab: return false
        }
    }
}
