// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerCrypto

/// One browser's push subscription (`PushSubscription.toJSON()` in the page): the
/// endpoint to post to, the browser's P-256 key (`p256dh`) and its 16-byte
/// authentication secret (`auth`), both base64url.
///
/// ```swift
/// let subscription = try PushSubscription(json: body)   // {"endpoint": …, "keys": {"p256dh": …, "auth": …}}
/// ```
public struct PushSubscription: Sendable, Hashable {
    /// Where the push service takes messages for it.
    public let endpoint: PushEndpoint
    /// The browser's public key, 65 bytes (an uncompressed P-256 point).
    public let p256dh: [UInt8]
    /// The browser's authentication secret, 16 bytes.
    public let auth: [UInt8]

    /// The largest subscription JSON read (browsers' are under 1 KB).
    public static let maxJSONSize = 4096

    /// A subscription from its parts, checked as `init(json:)` checks them.
    public init(endpoint: String, p256dh: [UInt8], auth: [UInt8], allowingLoopback: Bool = false)
        throws(WebPushError)
    {
        self.endpoint = try PushEndpoint(endpoint, allowingLoopback: allowingLoopback)
        guard auth.count == 16 else {
            throw WebPushError("keys.auth is \(auth.count) bytes, not 16")
        }
        do {
            _ = try P256PublicKey(rawRepresentation: p256dh)
        } catch {
            throw WebPushError("keys.p256dh is not a P-256 public key: \(error.reason)")
        }
        self.p256dh = p256dh
        self.auth = auth
    }

    /// The subscription in `json`, as `PushSubscription.toJSON()` writes it; throws,
    /// saying what is wrong, for anything else.
    public init(json: [UInt8], allowingLoopback: Bool = false) throws(WebPushError) {
        guard json.count <= Self.maxJSONSize else {
            throw WebPushError("the subscription is larger than \(Self.maxJSONSize) bytes")
        }
        let decoded: Wire
        do {
            decoded = try JSONDecoder().decode(Wire.self, from: Data(json))
        } catch {
            throw WebPushError(
                "not a push subscription: JSON with endpoint and keys.p256dh and keys.auth is expected")
        }
        guard let p256dh = Base64URL.decode(Self.unpadded(decoded.keys.p256dh)) else {
            throw WebPushError("keys.p256dh is not base64url")
        }
        guard let auth = Base64URL.decode(Self.unpadded(decoded.keys.auth)) else {
            throw WebPushError("keys.auth is not base64url")
        }
        try self.init(endpoint: decoded.endpoint, p256dh: p256dh, auth: auth, allowingLoopback: allowingLoopback)
    }

    /// Some browsers pad base64url with `=`.
    private static func unpadded(_ text: String) -> Substring {
        text[..<(text.firstIndex(of: "=") ?? text.endIndex)]
    }

    private struct Wire: Decodable {
        struct Keys: Decodable {
            let p256dh: String
            let auth: String
        }
        let endpoint: String
        let keys: Keys
    }
}
