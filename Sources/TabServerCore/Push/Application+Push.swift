// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerPush
import TabServerSessions
import TabServerTabBar

extension Application {
    /// Whether Web Push is on (`--vapid-key`).
    public var pushesBadges: Bool { responder.push != nil }

    /// Sends `message` to every browser that subscribed for the visitor `id` (a
    /// notification only to those that asked for them); the number of messages queued (0
    /// when push is off or nothing subscribed). The subscriptions are read on the blocking
    /// pool and the messages sent by the push sender. A push service that answers 404 or
    /// 410 has its subscription removed.
    ///
    /// ```swift
    /// var message = PushMessage(badge: 3)
    /// message.notification = .init(title: "Order shipped", navigate: "https://shop.example/tabs/orders")
    /// try await app.sendPush(message, toVisitor: id)
    /// ```
    @discardableResult
    public func sendPush(_ message: PushMessage, toVisitor id: SessionID) async throws(SessionStoreError) -> Int {
        try await offThread { () throws(SessionStoreError) in try self.sendPushNow(message, toVisitor: id) }
    }

    /// `sendPush(_:toVisitor:)` for every device of the signed-in user `name`.
    @discardableResult
    public func sendPush(_ message: PushMessage, toUser name: String) async throws(SessionStoreError) -> Int {
        try await sendPush(message, toVisitor: SessionID.user(name))
    }

    /// `sendPush` on this thread, waiting for the store.
    func sendPushNow(_ message: PushMessage, toVisitor id: SessionID) throws(SessionStoreError) -> Int {
        try responder.push?.send(message, to: id, now: wallClockSeconds()) ?? 0
    }

    /// Sets a tab's badge for one visitor (`setBadge(_:forTab:visitor:)`) and pushes the
    /// app badge it makes (the sum of the visitor's count badges) to their subscribed
    /// browsers, with `notification` where they asked for notifications. False when there
    /// is no such session.
    ///
    /// ```swift
    /// try await app.setBadge(.badge(.count(2)), forTab: "podcasts", visitor: id,
    ///                        notification: .init(title: "2 new episodes", navigate: "https://app.example/tabs/podcasts"))
    /// ```
    @discardableResult
    public func setBadge(
        _ badge: BadgeOverride?, forTab tabID: String, visitor id: SessionID,
        notification: PushMessage.Notification?
    ) async throws(SessionStoreError) -> Bool {
        try await offThread { () throws(SessionStoreError) in
            guard try self.setBadgeNow(badge, forTab: tabID, visitor: id) else { return false }
            _ = try self.pushAppBadgeNow(of: id, notification: notification)
            return true
        }
    }

    /// Sets a tab's badge in the signed-in user `name`'s record (every device shows it)
    /// and pushes the app badge to each device that subscribed. False when the user has
    /// no record yet.
    @discardableResult
    public func setBadge(
        _ badge: BadgeOverride?, forTab tabID: String, user name: String,
        notification: PushMessage.Notification? = nil
    ) async throws(SessionStoreError) -> Bool {
        try await setBadge(badge, forTab: tabID, visitor: SessionID.user(name), notification: notification)
    }

    /// The app badge of the session or record `id` (the sum of its count badges), pushed.
    @discardableResult
    public func pushAppBadge(of id: SessionID, notification: PushMessage.Notification? = nil)
        async throws(SessionStoreError) -> Int
    {
        try await offThread { () throws(SessionStoreError) in
            try self.pushAppBadgeNow(of: id, notification: notification)
        }
    }

    /// `pushAppBadge` on this thread, waiting for the store.
    func pushAppBadgeNow(of id: SessionID, notification: PushMessage.Notification?) throws(SessionStoreError) -> Int {
        guard responder.push != nil, let session = try engineStore.load(id, now: wallClockSeconds()) else { return 0 }
        let controller = tabs.current.controller
        let sum = controller.layout(controller.reconciled(session.state)).items.reduce(0) { sum, item in
            if case .count(let count) = item.badge?.value { return sum + max(0, count) }
            return sum
        }
        return try sendPushNow(PushMessage(badge: sum, notification: notification), toVisitor: id)
    }

    /// Waits at most `timeout` for the queued push messages to be sent (tests, shutdown).
    public func finishPushes(within timeout: Duration) -> Bool {
        responder.push?.sender.finish(within: timeout) ?? true
    }
}
