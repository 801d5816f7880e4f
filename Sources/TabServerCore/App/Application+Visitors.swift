// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerJSON
import TabServerSessions
import TabServerTabBar

extension Application {
    /// Changes one visitor's tab bar state from outside a request (new content arrived,
    /// an order shipped): reads the session, applies `change`, and writes it back with
    /// compare-and-set, retrying when a request of that visitor wrote in between.
    /// Returns once the change is durable; false when there is no such session (expired,
    /// or never issued).
    ///
    /// ```swift
    /// try app.updateVisitor(id) { controller, state in
    ///     state = controller.setBadge(.badge(.count(2)), forTab: "music", in: state)
    /// }
    /// ```
    @discardableResult
    public func updateVisitor(
        _ id: SessionID, _ change: (TabBarController, inout TabBarState) -> Void
    ) throws(SessionStoreError) -> Bool {
        let controller = tabs.current.controller
        for _ in 0..<SessionWrites.maxAttempts {
            guard var session = try engineStore.load(id, now: wallClockSeconds()) else { return false }
            var state = controller.reconciled(session.state)
            change(controller, &state)
            if state == session.state { return true }
            session.state = state
            if try engineStore.update(session) != nil {
                try engineStore.waitUntilDurable([id])
                return true
            }
        }
        throw SessionStoreError("session \(id) kept changing; the update was not applied")
    }

    /// Shows `badge` on a tab for one visitor only (`nil` goes back to the model's badge,
    /// `.hidden` hides it): the per-visitor side of `UITabBarItem.badgeValue`.
    @discardableResult
    public func setBadge(_ badge: BadgeOverride?, forTab tabID: String, visitor id: SessionID) throws(SessionStoreError)
        -> Bool
    {
        var shown: Badge?
        let found = try updateVisitor(id) { controller, state in
            state = controller.setBadge(badge, forTab: tabID, in: state)
            shown = controller.layout(state).items.first { $0.tab.id == tabID }?.badge
        }
        if found {
            // The visitor's open pages show it without a reload.
            let text = JSONString.quoted(shown?.displayText ?? "")
            let label = JSONString.quoted(shown?.accessibleText ?? "")
            responder.events.publish(
                "badge", data: "{\"tab\":\(JSONString.quoted(tabID)),\"text\":\(text),\"label\":\(label)}", to: id)
        }
        return found
    }
}
