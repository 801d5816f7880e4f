// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// Something an `AppHooks` observer is told about. A request collects these while it
/// runs and they are delivered only after its session write succeeded, so an observer
/// sees each event once and only for state that was committed (a request re-run after
/// a write conflict starts with an empty list).
package enum HookEvent: Sendable {
    case didSelect(Tab, TabBarState)
    case willBeginCustomizing(TabBarState)
    case didEndCustomizing(TabBarState, changed: Bool)
}

extension AppHooks {
    /// Tells the observers about committed events, in the order they happened.
    package func deliver(_ events: [HookEvent]) {
        for event in events {
            switch event {
            case .didSelect(let tab, let state): didSelect(tab, state)
            case .willBeginCustomizing(let state): willBeginCustomizing(state)
            case .didEndCustomizing(let state, let changed): didEndCustomizing(state, changed)
            }
        }
    }
}
