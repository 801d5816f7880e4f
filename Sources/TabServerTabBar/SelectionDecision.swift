// SPDX-License-Identifier: Apache-2.0
/// The answer of `TabBarHooks.shouldSelect`, UIKit's `tabBarController(_:shouldSelect:)`
/// with a reason: on the web a refused tap must explain itself on the next page.
public enum SelectionDecision: Sendable, Hashable {
    /// Let the selection happen.
    case allow
    /// Refuse it; `message` is shown to the visitor.
    case deny(message: String)
}
