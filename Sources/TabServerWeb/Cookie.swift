// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A cookie to set, rendered as one `Set-Cookie` header value.
///
/// ```swift
/// let cookie = Cookie(name: "tabserver_session", value: id, path: "/", secure: true)
/// response.headers.add("Set-Cookie", cookie.headerValue)
/// ```
public struct Cookie: Sendable, Hashable {
    /// `SameSite` attribute values.
    public enum SameSite: String, Sendable, Hashable {
        case strict = "Strict"
        case lax = "Lax"
        case none = "None"
    }

    public var name: String
    public var value: String
    public var path: String
    /// Seconds until it expires; nil makes a browser-session cookie.
    public var maxAge: Int?
    public var httpOnly: Bool
    public var secure: Bool
    public var sameSite: SameSite

    /// A cookie with safe defaults: `HttpOnly`, `SameSite=Lax`.
    public init(
        name: String, value: String, path: String = "/", maxAge: Int? = nil, httpOnly: Bool = true,
        secure: Bool = false, sameSite: SameSite = .lax
    ) {
        self.name = name
        self.value = value
        self.path = path
        self.maxAge = maxAge
        self.httpOnly = httpOnly
        self.secure = secure
        self.sameSite = sameSite
    }

    /// The `Set-Cookie` header value.
    public var headerValue: String {
        var text = "\(name)=\(value); Path=\(path)"
        if let maxAge { text += "; Max-Age=\(maxAge)" }
        if httpOnly { text += "; HttpOnly" }
        if secure { text += "; Secure" }
        text += "; SameSite=\(sameSite.rawValue)"
        return text
    }

    /// Whether `text` may be a cookie name or value as this server writes them
    /// (a token of visible ASCII without separators), so nothing a client sends can
    /// inject attributes when echoed.
    public static func isSafeToken(_ text: some StringProtocol) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 256 else { return false }
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                continue
            default: return false
            }
        }
        return true
    }
}
