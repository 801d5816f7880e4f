// SPDX-License-Identifier: Apache-2.0
/// The `Strict-Transport-Security` policy (RFC 6797) a TLS listener announces: browsers
/// that saw it use only HTTPS for the host for `maxAge` seconds.
///
/// ```swift
/// configuration.tls?.strictTransportSecurity = StrictTransportSecurity(maxAge: 31_536_000)
/// // Strict-Transport-Security: max-age=31536000
/// ```
public struct StrictTransportSecurity: Sendable, Hashable {
    /// Seconds a browser remembers the policy; 0 tells it to forget it.
    public var maxAge: Int
    /// Whether the policy covers every subdomain of the host as well.
    public var includeSubDomains: Bool

    /// A policy for `maxAge` seconds, for the host alone unless `includeSubDomains`.
    public init(maxAge: Int, includeSubDomains: Bool = false) {
        self.maxAge = maxAge
        self.includeSubDomains = includeSubDomains
    }

    /// The field's value, e.g. `max-age=31536000; includeSubDomains`.
    public var fieldValue: String {
        "max-age=\(max(0, maxAge))" + (includeSubDomains ? "; includeSubDomains" : "")
    }
}
