// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// The app's say in selection and customization: UIKit's `UITabBarControllerDelegate`
/// for the web. Selection may also ask the visitor to confirm first.
///
/// Two kinds of hook, with different guarantees:
/// - `shouldSelect` is a **veto** asked while the request runs. It must be pure (decide
///   from its arguments, no side effects): when another request wrote the same session
///   at the same moment, the request is run again and the veto asked again.
/// - `didSelect`, `willBeginCustomizing` and `didEndCustomizing` are **observers**. Each
///   fires exactly once per event, after the session write that records it succeeded,
///   never for a change that was rolled back. They run on a hook lane, a thread of the
///   server's own, queued once the commit is durable (never on an engine thread or the
///   SQLite writer, and the answer does not wait for them): one visitor's events in the order they were committed, a slow
///   observer delaying only the events of its lane. A lane holds 1,024 requests' events;
///   past that they are dropped, counted (`tabserver_hook_events_dropped_total`) and
///   logged. A server that stops gives them 5 seconds to finish.
///
/// ```swift
/// var hooks = AppHooks()
/// hooks.shouldSelect = { tab, state, confirmed in
///     tab.id == "purchased" && !confirmed ? .askConfirmation("Show your purchase history?") : .allow
/// }
/// hooks.didSelect = { tab, _ in metrics.count("selected.\(tab.id)") }
/// ```
public struct AppHooks: Sendable {
    /// The answer of `shouldSelect`.
    public enum Decision: Sendable, Hashable {
        case allow
        /// Refuse, with a message shown to the visitor.
        case deny(String)
        /// Refuse for now, with a message and a button that selects the tab when pressed.
        case askConfirmation(String)
    }

    /// `tabBarController(_:shouldSelect:)`: called before a tab is selected from the bar
    /// or More; `confirmed` is true when the visitor pressed the confirm button.
    public var shouldSelect: Veto = { _, _, _ in .allow } {
        didSet { vetoes = true }
    }
    /// The type of `shouldSelect`.
    public typealias Veto = @Sendable (_ tab: Tab, _ state: TabBarState, _ confirmed: Bool) -> Decision
    /// `tabBarController(_:didSelect:)`.
    public var didSelect: @Sendable (_ tab: Tab, _ state: TabBarState) -> Void = { _, _ in } {
        didSet { observes = true }
    }
    /// `tabBarController(_:willBeginCustomizing:)`: the visitor opened More → Edit.
    public var willBeginCustomizing: @Sendable (_ state: TabBarState) -> Void = { _ in } {
        didSet { observes = true }
    }
    /// `tabBarController(_:didEndCustomizing:changed:)`: the visitor pressed Done.
    public var didEndCustomizing: @Sendable (_ state: TabBarState, _ changed: Bool) -> Void = { _, _ in } {
        didSet { observes = true }
    }

    /// Whether the app set an observer: without one, events are not queued at all (a
    /// hook lane's wake-up costs more than a tap's whole write).
    package private(set) var observes = false

    /// Whether the app set `shouldSelect`: without it every selection is allowed, and a
    /// tap binds no task-local value to ask it.
    package private(set) var vetoes = false

    public init() {}

    /// The signed-in user of the request a hook is called for, as the authenticating proxy
    /// named them (`--identity-header`); nil for an anonymous visitor or outside a hook.
    ///
    /// ```swift
    /// hooks.didSelect = { tab, _ in audit.record(AppHooks.user ?? "anonymous", selected: tab.id) }
    /// ```
    @TaskLocal public static var user: String?

    /// The hooks as the model's controller takes them for one request: the selection
    /// verdict already decided, and no observers (the app records events itself and
    /// delivers them after the commit, see `HookEvent`).
    package func tabBarHooks(verdict: Decision) -> TabBarHooks {
        TabBarHooks(shouldSelect: { _, _ in
            switch verdict {
            case .allow: .allow
            case .deny(let message), .askConfirmation(let message): .deny(message: message)
            }
        })
    }
}
