// SPDX-License-Identifier: Apache-2.0
/// One browser's push subscription as a session keeps it: the push service's endpoint,
/// the browser's P-256 key and authentication secret (checked when it was taken: see
/// `TabServerPush.PushSubscription`), when it was taken, and whether the visitor asked
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

    /// A record with these parts.
    public init(endpoint: String, p256dh: [UInt8], auth: [UInt8], created: Int64, notifications: Bool) {
        self.endpoint = endpoint
        self.p256dh = p256dh
        self.auth = auth
        self.created = created
        self.notifications = notifications
    }

    /// What the record counts against a `PushSubscriptionLimit`: the bytes it stores (the
    /// endpoint, the keys, the time and the flag).
    public var storedBytes: Int { endpoint.utf8.count + p256dh.count + auth.count + 9 }
}

/// How many subscriptions a session keeps, and how many bytes of them: a visitor decides
/// what is posted to the push routes, so without a cap in bytes a session could hold
/// kilobytes of endpoints where a few hundred bytes do. Past either cap the oldest go.
public struct PushSubscriptionLimit: Sendable, Hashable {
    /// Subscriptions kept at most.
    public let count: Int
    /// Their `storedBytes` together at most.
    public let bytes: Int

    /// A limit of `count` subscriptions and `bytes` bytes.
    public init(count: Int, bytes: Int) {
        self.count = count
        self.bytes = bytes
    }

    /// An anonymous visitor's session: this browser's own subscription, and the one it
    /// replaces while the browser rotates it (two at the longest endpoint taken fit).
    public static let browser = PushSubscriptionLimit(count: 2, bytes: 2_304)
    /// A signed-in user's record: their devices. Real push services' endpoints are under
    /// 300 bytes, so five devices fit; two at the longest endpoint taken.
    public static let user = PushSubscriptionLimit(count: 5, bytes: 2_304)

    /// The longest endpoint kept, in bytes (what `TabServerPush.PushEndpoint` takes).
    public static let longestEndpoint = 1024

    /// The most any session holds (what a stored session may carry when it is read).
    static let largest = PushSubscriptionLimit(
        count: max(browser.count, user.count), bytes: max(browser.bytes, user.bytes))
}

extension [PushSubscriptionRecord] {
    /// The list with `record` in place of any with its endpoint, at the end, the oldest
    /// dropped past `limit`.
    public func adding(_ record: PushSubscriptionRecord, within limit: PushSubscriptionLimit)
        -> [PushSubscriptionRecord]
    {
        var list = filter { $0.endpoint != record.endpoint }
        list.append(record)
        return list.trimmed(to: limit)
    }

    /// The newest subscriptions that fit `limit` (none when the newest alone does not).
    public func trimmed(to limit: PushSubscriptionLimit) -> [PushSubscriptionRecord] {
        var kept = 0
        var bytes = 0
        for record in reversed() {
            guard kept < limit.count, bytes + record.storedBytes <= limit.bytes else { break }
            kept += 1
            bytes += record.storedBytes
        }
        return Array(suffix(kept))
    }

    /// The list without the subscription at `endpoint`.
    public func removing(endpoint: String) -> [PushSubscriptionRecord] {
        filter { $0.endpoint != endpoint }
    }
}
