// SPDX-License-Identifier: Apache-2.0
/// The HTTPS origin the redirect port points to when it is known in advance (the public
/// origin), instead of the request's `Host` and the listener's own port.
///
/// ```swift
/// configuration.tls?.redirectOrigin = RedirectOrigin(host: "shop.example.com")
/// // GET http://shop.example.com/tabs/tv → 308 Location: https://shop.example.com/tabs/tv
/// ```
public struct RedirectOrigin: Sendable, Hashable {
    /// The host name or address (an IPv6 address without brackets).
    public var host: String
    /// The HTTPS port; nil for 443.
    public var port: Int?

    /// An origin of `host` and `port` (443 unless given).
    public init(host: String, port: Int? = nil) {
        self.host = host
        self.port = port
    }
}
