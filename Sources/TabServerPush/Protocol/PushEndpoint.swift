// SPDX-License-Identifier: Apache-2.0
/// Where a push service takes messages for one subscription: an `https` URL whose host is
/// a name, never an address (the server posts to it, so it must not reach into the
/// server's own network; the addresses the name resolves to are checked again when
/// connecting, see `PushAddressPolicy`).
///
/// ```swift
/// let endpoint = try PushEndpoint("https://push.example.net/send/abc")
/// endpoint.host        // "push.example.net"
/// endpoint.origin      // "https://push.example.net" (VAPID's audience)
/// ```
public struct PushEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The URL as the browser gave it.
    public let url: String
    /// The host name, lowercased.
    public let host: String
    /// The port (443 unless the URL names one).
    public let port: Int
    /// The path and query, what the request line carries ("/send/abc").
    public let target: String

    /// The longest URL taken: push services' endpoints are under 300 bytes, and a session
    /// keeps what a visitor posts (see `PushSubscriptionLimit`).
    public static let maxLength = 1024

    /// Parses and checks `url`; throws, saying why, for anything but an `https` URL
    /// with a host name (no IP literal, no `localhost`, no user info, no fragment).
    /// `allowingLoopback`: for tests only, `127.0.0.1` and `localhost` are taken too.
    public init(_ url: String, allowingLoopback: Bool = false) throws(WebPushError) {
        guard url.utf8.count <= Self.maxLength else {
            throw WebPushError("the endpoint is longer than \(Self.maxLength) bytes")
        }
        guard url.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw WebPushError("the endpoint holds spaces, control or non-ASCII characters")
        }
        let lower = url.lowercased()
        guard lower.hasPrefix("https://") else {
            throw WebPushError("the endpoint is not an https URL")
        }
        let rest = url.dropFirst("https://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        var target = String(rest[authorityEnd...])
        guard !target.contains("#") else { throw WebPushError("the endpoint has a fragment") }
        guard !authority.contains("@") else { throw WebPushError("the endpoint carries user info") }
        guard !authority.hasPrefix("[") else { throw WebPushError("the endpoint's host is an IP address") }
        var hostPart = Substring(authority)
        var port = 443
        if let colon = authority.lastIndex(of: ":") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else {
                throw WebPushError("the endpoint's port is not a number from 1 to 65535")
            }
            port = number
            hostPart = authority[..<colon]
        }
        let host = hostPart.lowercased()
        let loopbackHost = host == "127.0.0.1" || host == "localhost"
        if !(allowingLoopback && loopbackHost) {
            try Self.checkName(host)
        }
        if target.isEmpty || target.hasPrefix("?") { target = "/" + target }
        self.url = url
        self.host = host
        self.port = port
        self.target = target
    }

    /// `https://host` (with `:port` when not 443): the audience of a VAPID token.
    public var origin: String { port == 443 ? "https://\(host)" : "https://\(host):\(port)" }

    public var description: String { url }

    /// Refuses a host that is not a DNS name of letters, digits and hyphens in dotted
    /// labels, one that reads as an IPv4 address in any of the forms resolvers accept
    /// (`127.1`, `2130706433`, `0x7f.0.0.1`), and the loopback names.
    private static func checkName(_ host: String) throws(WebPushError) {
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        guard !name.isEmpty, name.utf8.count <= 253 else {
            throw WebPushError("the endpoint has no host name")
        }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            let valid =
                (1...63).contains(label.utf8.count) && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.utf8.allSatisfy { byte in
                    (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-")
                }
            guard valid else { throw WebPushError("the endpoint's host is not a DNS name") }
        }
        // A name whose last label is all digits, or hexadecimal with 0x, is an address.
        let last = labels.last!
        if last.allSatisfy(\.isNumber) || last.hasPrefix("0x") {
            throw WebPushError("the endpoint's host is an IP address")
        }
        if name == "localhost" || name.hasSuffix(".localhost") {
            throw WebPushError("the endpoint's host is this machine")
        }
    }
}
