// SPDX-License-Identifier: Apache-2.0
extension SessionCodec {
    /// The tail entry that holds a session's push subscriptions.
    static let pushSubscriptionsTag: UInt8 = 6
    /// The version of that entry's own layout written now.
    static let pushSubscriptionsVersion: UInt8 = 1

    /// Tail entry 6: the length of what follows, then its version, the count, and for
    /// each subscription the endpoint, the 65-byte key, the 16-byte secret, the time it
    /// was taken and whether it shows notifications. The length lets a version that does
    /// not know a later layout skip the entry (the session loses its subscriptions, not
    /// its state).
    static func encodePushSubscriptions(_ session: Session, into writer: inout SessionBytesWriter) {
        let subscriptions = session.pushSubscriptions
        guard !subscriptions.isEmpty else { return }
        var part = SessionBytesWriter(capacity: 128 * subscriptions.count)
        part.byte(pushSubscriptionsVersion)
        part.unsigned(UInt64(subscriptions.count))
        for subscription in subscriptions {
            part.string(subscription.endpoint)
            part.raw(subscription.p256dh)
            part.raw(subscription.auth)
            part.signed(subscription.created)
            part.byte(subscription.notifications ? 1 : 0)
        }
        writer.byte(pushSubscriptionsTag)
        writer.unsigned(UInt64(part.bytes.count))
        writer.raw(part.bytes)
    }

    /// The subscriptions of tail entry 6 (its tag already read); none for a layout this
    /// version does not know. A list written before the caps in bytes loads trimmed to
    /// the newest that fit them.
    static func decodePushSubscriptions(_ reader: inout SessionBytesReader) throws(SessionBytesReader.Malformed)
        -> [PushSubscriptionRecord]
    {
        let length = try reader.count()
        var part = SessionBytesReader(try reader.raw(count: length))
        guard try part.byte() == pushSubscriptionsVersion else { return [] }
        let count = try part.count()
        guard count <= Self.mostSubscriptionsRead else { throw SessionBytesReader.Malformed() }
        var subscriptions: [PushSubscriptionRecord] = []
        for _ in 0..<count {
            let endpoint = try part.string()
            let p256dh = try part.raw(count: 65)
            let auth = try part.raw(count: 16)
            let created = try part.signed()
            let notifications = try part.flag()
            subscriptions.append(
                PushSubscriptionRecord(
                    endpoint: endpoint, p256dh: p256dh, auth: auth, created: created, notifications: notifications))
        }
        guard part.isAtEnd else { throw SessionBytesReader.Malformed() }
        // Endpoints past today's longest, kept by an earlier version, could never be sent to.
        return subscriptions.filter { $0.endpoint.utf8.count <= PushSubscriptionLimit.longestEndpoint }
            .trimmed(to: .largest)
    }

    /// The most subscriptions an entry may list: what earlier versions kept (eight a
    /// session), so a session they wrote still loads.
    static let mostSubscriptionsRead = 8
}
