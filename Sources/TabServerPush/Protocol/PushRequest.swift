// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto

/// The HTTP request that hands one message to a push service (RFC 8030 §5): a `POST`
/// to the subscription's endpoint with the encrypted payload, its coding, how long the
/// service may keep it (`TTL`), its `Urgency`, a `Topic` for badge updates, and the
/// server's VAPID `Authorization`.
///
/// ```swift
/// let request = try PushRequest(message, to: subscription, key: vapidKey, subject: "mailto:ops@example.com", now: now)
/// // request.headers: [("TTL", "86400"), ("Content-Encoding", "aes128gcm"), …]
/// ```
public struct PushRequest: Sendable {
    /// Where it goes.
    public let endpoint: PushEndpoint
    /// Its header fields, in order.
    public let headers: [(name: String, value: String)]
    /// The `aes128gcm` body.
    public let body: [UInt8]

    /// How long a push service keeps a message for a browser that is offline: a day.
    public static let timeToLive = 86_400

    /// The request for `message` to `subscription`, encrypted with a fresh key and salt.
    public init(
        _ message: PushMessage, to subscription: PushSubscription, key: P256PrivateKey, subject: String, now: Int64
    ) throws(CryptoError) {
        endpoint = subscription.endpoint
        body = try PushEncryption.encrypt(message.payload, for: subscription)
        var headers: [(name: String, value: String)] = [
            ("TTL", String(Self.timeToLive)),
            ("Urgency", message.notification == nil ? "low" : "normal"),
            ("Content-Type", "application/octet-stream"),
            ("Content-Encoding", "aes128gcm"),
            (
                "Authorization",
                try VAPID.authorization(for: subscription.endpoint, key: key, subject: subject, now: now)
            ),
        ]
        if let topic = message.topic { headers.append(("Topic", topic)) }
        self.headers = headers
    }
}
