// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Where a request was made, as far as the browser tells: by a page of this app, by a page
/// of another origin, or by a client that says nothing (an API client, an old browser).
///
/// The browser's `Sec-Fetch-Site` is read first; without it, `Origin`, whose host must be
/// the app's. Ports are not compared: a proxy that passes `Host` on without its port
/// (nginx's `$host`) would make every page of the app look foreign, and a page on another
/// port of the same host is no stranger than the host itself.
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
    /// nil when the app's host is not known: then any `Origin` is another's).
    public init(of request: HTTPRequest, appHost: String?) {
        let fetchSite = request.headers["sec-fetch-site"]?.lowercased()
        if fetchSite == "cross-site" {
            self = .otherOrigin
            return
        }
        guard let origin = request.headers["origin"] else {
            switch fetchSite {
            case "same-origin", "none": self = .sameOrigin
            case nil: self = .unknown
            default: self = .otherOrigin  // same-site: another origin of the site, or a value not known
            }
            return
        }
        guard let originHost = Self.host(ofOrigin: origin), let appHost else {
            self = .otherOrigin
            return
        }
        self = Self.name(originHost).lowercased() == Self.name(appHost[...]).lowercased() ? .sameOrigin : .otherOrigin
    }

    /// The host of an `Origin` value, `scheme://host[:port]` (nil for `null` or a malformed one).
    static func host(ofOrigin origin: String) -> Substring? {
        guard let colon = origin.firstIndex(of: ":"), origin[colon...].hasPrefix("://") else { return nil }
        let host = origin[origin.index(colon, offsetBy: 3)...]
        guard !host.isEmpty, !host.contains("/") else { return nil }
        return host
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
