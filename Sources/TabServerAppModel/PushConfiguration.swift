// SPDX-License-Identifier: Apache-2.0
/// Web Push for the installed app: off unless a VAPID key file is named.
///
/// ```swift
/// var configuration = AppConfiguration()
/// configuration.push.vapidKeyPath = "data/vapid.pem"      // made on first start, kept after
/// configuration.push.contact = "mailto:ops@example.com"
/// ```
public struct PushConfiguration: Sendable {
    /// The VAPID key (PEM, P-256): read at start, made there (mode 0600) when absent.
    /// Nil: Web Push is off (More offers no opt-in, the push routes answer 404).
    public var vapidKeyPath: String?
    /// The contact push services may write to about this server (VAPID's `sub`): a
    /// `mailto:` or `https:` URL. Nil: the public origin when set, else
    /// `mailto:webmaster@localhost`.
    public var contact: String?
    /// For tests only: endpoints on loopback (`https://127.0.0.1:PORT/…`) are taken and
    /// posted to. Never in production: it lets a visitor make the server post to itself.
    public var allowsLoopback = false
    /// For tests only: the push services' certificates are checked against this PEM file
    /// alone instead of the system's trusted certificates.
    public var trustedCertificatesPath: String?
    /// How long one message may take, connection to answer.
    public var timeout: Duration = .seconds(10)

    /// Off.
    public init() {}
}
