// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Where a request was made, as far as the browser tells: by a page of this app, by a page
/// of another origin, or by a client that says nothing (an API client, an old browser).
///
/// The browser's `Sec-Fetch-Site` decides when it is sent (no page can forge it):
/// `same-origin` or `none` is this app, `cross-site` another. Without it, as older Safari
/// and Firefox post, and for `same-site` (another origin of the same site, a sibling
/// subdomain), the `Origin` must name the app's host. Ports are not compared: a proxy that
/// passes `Host` on without its port (nginx's `$host`) would make every page of the app
/// look foreign, and a page on another port of the same host is no stranger than the
/// host itself. The scheme is compared when the app's is known (`--public-origin`).
///
/// ```swift
/// switch RequestSite(of: request, appHost: "shop.example") {
/// case .otherOrigin: throw HTTPError.forbidden("…")
/// case .sameOrigin, .unknown: break
/// }
/// ```
public enum RequestSite: Sendable, Hashable {
    /// A page of this app (`Sec-Fetch-Site: same-origin` or `none`, or an `Origin` of the
    /// app's host).
    case sameOrigin
    /// A page of another site, or another origin of the same site (`cross-site`, an
    /// `Origin` of another host, `Origin: null`).
    case otherOrigin
    /// No browser header: an API client, or a browser too old to send them.
    case unknown

    /// The site of `request` to an app at `appHost` (a host name, with or without a port;
    /// nil when the app's host is not known: then any `Origin` is another's), reached by
    /// `appScheme` when it is known ("https").
    public init(of request: HTTPRequest, appHost: @autoclosure () -> String?, appScheme: String? = nil) {
        let fetchSite = request.headers["sec-fetch-site"]?.lowercased()
        switch fetchSite {
        case "same-origin", "none":
            self = .sameOrigin
            return
        case "cross-site":
            self = .otherOrigin
            return
        default: break
        }
        guard let origin = request.headers["origin"] else {
            // `same-site` without an Origin, or a value not known: another origin.
            self = fetchSite == nil ? .unknown : .otherOrigin
            return
        }
        guard let (scheme, originHost) = Self.parts(ofOrigin: origin), let appHost = appHost() else {
            self = .otherOrigin
            return
        }
        let sameHost = Self.name(originHost).lowercased() == Self.name(appHost[...]).lowercased()
        let sameScheme = appScheme.map { $0.lowercased() == scheme.lowercased() } ?? true
        self = sameHost && sameScheme ? .sameOrigin : .otherOrigin
    }

    /// The scheme and host of an `Origin` value, `scheme://host[:port]` (nil for `null` or
    /// a malformed one).
    static func parts(ofOrigin origin: String) -> (scheme: Substring, host: Substring)? {
        guard let colon = origin.firstIndex(of: ":"), origin[colon...].hasPrefix("://") else { return nil }
        let host = origin[origin.index(colon, offsetBy: 3)...]
        guard !host.isEmpty, !host.contains("/"), !host.contains("@") else { return nil }
        return (origin[..<colon], host)
    }

    /// A host without its port: `shop.example:8443` → `shop.example`, `[::1]:80` → `[::1]`.
    static func name(_ host: Substring) -> Substring {
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return host }
            return host[...close]
        }
        guard let colon = host.lastIndex(of: ":") else { return host }
        return host[..<colon]
    }
}
