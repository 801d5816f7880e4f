// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// What the plain redirect listener (`--redirect-http-port`) answers: every request a
/// `308` to the same path and query on the HTTPS origin. The host comes from the
/// request (its `Host`, or the authority of an absolute target), checked to be a host
/// name or an IP literal; the port is the HTTPS listener's (left out when 443). When the
/// public origin is known, it is used instead and the request's host is ignored.
///
/// ```swift
/// let redirect = HTTPSRedirect(httpsPort: 8443)
/// redirect.location(host: "shop.local:8080", target: "/tabs/tv?x=1")
/// // "https://shop.local:8443/tabs/tv?x=1"
/// ```
struct HTTPSRedirect: Sendable {
    /// The port the HTTPS listener is bound to.
    let httpsPort: Int
    /// The public origin, when configured: its host and port win.
    var origin: RedirectOrigin? = nil

    /// The `Location` for a request with this `Host` field and request target, or nil
    /// when there is no usable host (no `Host`, or one that is not a host name, an IPv4
    /// address or a bracketed IPv6 address, with at most a numeric port).
    func location(host field: String?, target: String) -> String? {
        var authority = field.map { Substring($0) }
        var pathAndQuery = Substring(target)
        let lowered = target.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            // Absolute form (RFC 9112 §3.2.2): its authority replaces `Host`.
            let rest = target.dropFirst(scheme.count)
            let end = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            authority = rest[..<end]
            pathAndQuery = rest[end...]
        }
        if pathAndQuery.isEmpty || pathAndQuery == "*" {
            pathAndQuery = "/"
        } else if pathAndQuery.hasPrefix("?") {
            pathAndQuery = "/" + pathAndQuery
        }
        guard pathAndQuery.hasPrefix("/") else { return nil }
        let host: String
        let port: Int
        if let origin {
            host = origin.host.contains(":") ? "[\(origin.host)]" : origin.host
            port = origin.port ?? 443
        } else {
            guard let authority, let name = Self.hostName(authority) else { return nil }
            host = name
            port = httpsPort
        }
        return "https://" + host + (port == 443 ? "" : ":\(port)") + pathAndQuery
    }

    /// The host of an authority (`name[:port]`, `[v6][:port]`), lowercased, or nil when it
    /// is not a plain host name or IP literal.
    static func hostName(_ authority: Substring) -> String? {
        var host = authority
        var port: Substring = ""
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { return nil }
            port = after.dropFirst()
            let inside = host.dropFirst().dropLast()
            guard !inside.isEmpty, inside.count <= 45, inside.contains(":"),
                inside.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." })
            else { return nil }
        } else {
            if let colon = authority.firstIndex(of: ":") {
                host = authority[..<colon]
                port = authority[authority.index(after: colon)...]
            }
            guard !host.isEmpty, host.utf8.count <= 253, !host.hasPrefix("."), !host.hasPrefix("-"),
                host.utf8.allSatisfy({ byte in
                    (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                        || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
                })
            else { return nil }
        }
        guard port.count <= 5, port.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return host.lowercased()
    }
}
