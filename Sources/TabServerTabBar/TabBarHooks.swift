// SPDX-License-Identifier: Apache-2.0
/// The app's say in tab bar events, mirroring `UITabBarControllerDelegate`.
///
/// Hooks are synchronous and receive values, so they cannot reach into the
/// controller; they are for vetoes, logging and metrics. They must be `@Sendable`
/// because one controller serves every request concurrently.
///
/// ```swift
/// let hooks = TabBarHooks(shouldSelect: { tab, _ in
///     tab.id == "admin" ? .deny(message: "Sign in to see Admin.") : .allow
/// })
/// ```
public struct TabBarHooks: Sendable {
    /// Asked before a tap on a tab takes effect, including a re-tap of the selected
    /// tab, as UIKit does. Not asked for visits (a GET is not a tap).
    public var shouldSelect: @Sendable (_ tab: Tab, _ state: TabBarState) -> SelectionDecision
    /// Told after a tap took effect, with the new state; also after a re-tap.
    public var didSelect: @Sendable (_ tab: Tab, _ state: TabBarState) -> Void
    /// Told when the visitor opens the customize page (More → Edit).
    public var willBeginCustomizing: @Sendable (_ state: TabBarState) -> Void
    /// Told when the visitor leaves it (Done), with whether the order changed.
    public var didEndCustomizing: @Sendable (_ state: TabBarState, _ changed: Bool) -> Void

    /// Creates hooks; each defaults to allowing everything and doing nothing.
    public init(
        shouldSelect: @escaping @Sendable (_ tab: Tab, _ state: TabBarState) -> SelectionDecision = { _, _ in .allow },
        didSelect: @escaping @Sendable (_ tab: Tab, _ state: TabBarState) -> Void = { _, _ in },
        willBeginCustomizing: @escaping @Sendable (_ state: TabBarState) -> Void = { _ in },
        didEndCustomizing: @escaping @Sendable (_ state: TabBarState, _ changed: Bool) -> Void = { _, _ in }
    ) {
        self.shouldSelect = shouldSelect
        self.didSelect = didSelect
        self.willBeginCustomizing = willBeginCustomizing
        self.didEndCustomizing = didEndCustomizing
    }
}
