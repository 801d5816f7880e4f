// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP
import TabServerJSON

/// Voluntary Application Server Identification (RFC 8292): the `Authorization` a push
/// service asks of the server, a JWT signed with ES256 that names the push service's
/// origin (`aud`), an expiry (`exp`, at most a day ahead) and a contact (`sub`), with the
/// server's public key beside it (`k`).
///
/// ```swift
/// let header = try VAPID.authorization(for: endpoint, key: key, subject: "mailto:ops@example.com", now: now)
/// // "vapid t=eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.…, k=BP4z9K…"
/// ```
public enum VAPID {
    /// How long a token is valid (push services refuse more than 24 hours).
    public static let lifetime: Int64 = 12 * 3600

    /// The JWT for `audience` (an origin, `https://host`), valid until `now + lifetime`.
    public static func token(audience: String, key: P256PrivateKey, subject: String, now: Int64)
        throws(CryptoError) -> String
    {
        let header = #"{"typ":"JWT","alg":"ES256"}"#
        let claims =
            #"{"aud":"\#(JSONString.escaped(audience))","exp":\#(now + lifetime),"sub":"\#(JSONString.escaped(subject))"}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.signature(for: Array(signingInput.utf8))
        return signingInput + "." + Base64URL.encode(signature)
    }

    /// The `Authorization` field's value for a message to `endpoint`.
    public static func authorization(for endpoint: PushEndpoint, key: P256PrivateKey, subject: String, now: Int64)
        throws(CryptoError) -> String
    {
        let token = try token(audience: endpoint.origin, key: key, subject: subject, now: now)
        return "vapid t=\(token), k=\(Base64URL.encode(key.publicKey.rawRepresentation))"
    }
}
