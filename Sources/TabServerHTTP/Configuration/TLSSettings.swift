// SPDX-License-Identifier: Apache-2.0
/// Where the listener's certificate and key are, and the oldest TLS version it accepts
/// (`--tls-certificate`, `--tls-key`, `--tls-min-version`).
///
/// ```swift
/// configuration.tls = TLSSettings(certificatePath: "/etc/letsencrypt/live/shop/fullchain.pem",
///                                 keyPath: "/etc/letsencrypt/live/shop/privkey.pem")
/// ```
public struct TLSSettings: Sendable, Hashable {
    /// TLS 1.2 and 1.3 are served; this is the oldest of them a client may use.
    public enum MinimumVersion: String, Sendable, Hashable, CaseIterable {
        case tls12 = "1.2"
        case tls13 = "1.3"
    }

    /// PEM: the leaf certificate first, then its intermediates (a "full chain").
    public var certificatePath: String
    /// PEM: the certificate's private key, unencrypted.
    public var keyPath: String
    public var minimumVersion: MinimumVersion
    /// Whether ALPN offers HTTP/2 (`h2`) besides HTTP/1.1; on by default. HTTP/2 is only
    /// ever served over TLS (no h2c).
    public var http2: Bool
    /// A plain HTTP port whose every request is answered `308` to the HTTPS origin
    /// (`--redirect-http-port`); nil: none. 0 picks a free one (`HTTPServer.redirectPort`).
    public var redirectHTTPPort: Int? = nil
    /// Where the redirect points when the public origin is known (`--public-origin
    /// https://…`): its host and port; nil takes the request's `Host` and the listener's port.
    public var redirectOrigin: RedirectOrigin? = nil
    /// The `Strict-Transport-Security` field sent on every answer over TLS (never over
    /// plain HTTP); nil: none (`--hsts-max-age`).
    public var strictTransportSecurity: StrictTransportSecurity? = nil

    /// The files and the minimum version (1.2 unless given).
    public init(
        certificatePath: String, keyPath: String, minimumVersion: MinimumVersion = .tls12, http2: Bool = true
    ) {
        self.certificatePath = certificatePath
        self.keyPath = keyPath
        self.minimumVersion = minimumVersion
        self.http2 = http2
    }
}
