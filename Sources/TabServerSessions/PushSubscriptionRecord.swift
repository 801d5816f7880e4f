// SPDX-License-Identifier: Apache-2.0
/// One browser's push subscription as a session keeps it: the push service's endpoint,
/// the browser's P-256 key and authentication secret (checked when it was taken: see
/// `TabServerWebPush.PushSubscription`), when it was taken, and whether the visitor asked
/// for notifications as well as the app badge.
public struct PushSubscriptionRecord: Sendable, Hashable {
    /// The push service's URL for this browser.
    public var endpoint: String
    /// The browser's public key (65 bytes).
    public var p256dh: [UInt8]
    /// The browser's authentication secret (16 bytes).
    public var auth: [UInt8]
    /// When it was taken, seconds since 1970.
    public var created: Int64
    /// Whether pushes may show notifications (else they only set the app badge).
    public var notifications: Bool

    /// How many subscriptions one session keeps (a user's devices): past it, the oldest goes.
    public static let maximumPerSession = 8

    /// A record with these parts.
    public init(endpoint: String, p256dh: [UInt8], auth: [UInt8], created: Int64, notifications: Bool) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.created = created
        self.notifications = notifications
    }
}

extension [PushSubscriptionRecord] {
    /// The list with `record` in place of any with its endpoint, at the end, the oldest
    /// dropped past `maximumPerSession`.
    public func adding(_ record: PushSubscriptionRecord) -> [PushSubscriptionRecord] {
        var list = filter { $0.endpoint != record.endpoint }
        list.append(record)
        return Array(list.suffix(PushSubscriptionRecord.maximumPerSession))
    }

    /// The list without the subscription at `endpoint`.
    public func removing(endpoint: String) -> [PushSubscriptionRecord] {
        filter { $0.endpoint != endpoint }
    }
}
