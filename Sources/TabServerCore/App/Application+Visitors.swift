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
    /// or never issued). The store is read and written on the blocking pool: the caller's
    /// thread never waits for it.
    ///
    /// ```swift
    /// try await app.updateVisitor(id) { controller, state in
    ///     state = controller.setBadge(.badge(.count(2)), forTab: "music", in: state)
    /// }
    /// ```
    @discardableResult
    public func updateVisitor(
        _ id: SessionID, _ change: @escaping @Sendable (TabBarController, inout TabBarState) -> Void
    ) async throws(SessionStoreError) -> Bool {
        try await offThread { () throws(SessionStoreError) in try self.updateVisitorNow(id, change) }
    }

    /// Shows `badge` on a tab for one visitor only (`nil` goes back to the model's badge,
    /// `.hidden` hides it): the per-visitor side of `UITabBarItem.badgeValue`.
    @discardableResult
    public func setBadge(_ badge: BadgeOverride?, forTab tabID: String, visitor id: SessionID)
        async throws(SessionStoreError) -> Bool
    {
        try await offThread { () throws(SessionStoreError) in try self.setBadgeNow(badge, forTab: tabID, visitor: id) }
    }

    /// `updateVisitor` on this thread, waiting for the store.
    func updateVisitorNow(_ id: SessionID, _ change: (TabBarController, inout TabBarState) -> Void)
        throws(SessionStoreError) -> Bool
    {
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

    /// `setBadge` on this thread, waiting for the store.
    func setBadgeNow(_ badge: BadgeOverride?, forTab tabID: String, visitor id: SessionID)
        throws(SessionStoreError) -> Bool
    {
        var shown: Badge?
        let found = try updateVisitorNow(id) { controller, state in
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

    /// Runs `body`, which waits for the store, on the blocking pool; a pool too busy to
    /// take it is a store error like any other.
    func offThread<Value: Sendable>(_ body: @escaping @Sendable () throws(SessionStoreError) -> Value)
        async throws(SessionStoreError) -> Value
    {
        let outcome: Result<Value, SessionStoreError>
        do {
            outcome = try await responder.operations.blockingPool.run { () -> Result<Value, SessionStoreError> in
                do throws(SessionStoreError) {
                    return .success(try body())
                } catch {
                    return .failure(error)
                }
            }
        } catch {
            throw SessionStoreError("the store's calls are not taken now: \(error)")
        }
        return try outcome.get()
    }
}
