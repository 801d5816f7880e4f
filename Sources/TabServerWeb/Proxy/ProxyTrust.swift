// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Which peers may tell the server about the original request (client address, scheme,
/// host, path prefix) through `Forwarded` (RFC 7239) or `X-Forwarded-*`. From anyone
/// else these headers are ignored: a client cannot claim HTTPS or another address.
///
/// ```swift
/// let trust = try ProxyTrust("127.0.0.0/8, ::1")
/// let origin = trust.origin(of: request)   // scheme, host, client as the proxy saw them
/// ```
public struct ProxyTrust: Sendable, Hashable, CustomStringConvertible {
    /// The trusted peers.
    public let ranges: [AddressRange]

    /// Trusts exactly `ranges` (none: headers from every peer are ignored).
    public init(ranges: [AddressRange]) {
        self.ranges = ranges
    }

    /// The default: proxies on this machine (`127.0.0.0/8, ::1`).
    public static let loopback = ProxyTrust(ranges: [.loopbackIPv4, .loopbackIPv6])

    /// The list as it is written in configuration: "127.0.0.0/8, ::1".
    public var description: String { ranges.map(\.description).joined(separator: ", ") }

    /// Parses a comma-separated list of addresses and CIDR ranges ("" trusts no one).
    public init(_ list: String) throws(HTTPError) {
        var ranges: [AddressRange] = []
        for item in list.split(separator: ",") {
            let trimmed = String(item.filter { $0 != " " })
            guard let range = AddressRange(trimmed) else {
                throw HTTPError.badRequest("'\(trimmed)' is not an IP address or CIDR range")
            }
            ranges.append(range)
        }
        self.ranges = ranges
    }

    /// Whether the socket peer is a trusted proxy.
    public func trusts(_ address: String) -> Bool {
        ranges.contains { $0.contains(address) }
    }

    /// The request as the client made it, from what trusted proxies say.
    public func origin(of request: HTTPRequest) -> RequestOrigin {
        let peer = request.remoteAddress
        guard trusts(peer) else { return RequestOrigin(client: peer, scheme: "http", host: nil, prefix: nil) }
        var client = peer
        var scheme = "http"
        var host: String? = nil
        var prefix: String? = nil
        if let forwarded = ForwardedHeader(request.headers.values("forwarded")) {
            // Walk from the nearest hop outwards: the first address not of a trusted
            // proxy is the client; scheme and host come from the nearest hop that says.
            for element in forwarded.elements.reversed() {
                if let address = element.for, !address.isEmpty {
                    client = address
                    if !trusts(address) { break }
                }
            }
            if let last = forwarded.elements.last {
                scheme = last.proto ?? scheme
                host = last.host
            }
        } else {
            let chain = request.headers.values("x-forwarded-for").flatMap { $0.split(separator: ",") }
                .map { String($0.filter { $0 != " " }) }.filter { !$0.isEmpty }
            for address in chain.reversed() {
                client = address
                if !trusts(address) { break }
            }
            if let proto = Self.lastValue(request.headers.values("x-forwarded-proto")) { scheme = proto.lowercased() }
            host = Self.lastValue(request.headers.values("x-forwarded-host"))
        }
        prefix = Self.lastValue(request.headers.values("x-forwarded-prefix"))
        if scheme != "https" { scheme = "http" }
        return RequestOrigin(client: client, scheme: scheme, host: host, prefix: prefix)
    }

    private static func lastValue(_ values: [String]) -> String? {
        guard let last = values.last?.split(separator: ",").last else { return nil }
        let trimmed = String(last.filter { $0 != " " })
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// The original request's client, scheme and host, as far as they are known.
public struct RequestOrigin: Sendable, Hashable {
    /// The client's address (the socket peer unless a trusted proxy said otherwise).
    public let client: String
    /// "https" or "http".
    public let scheme: String
    /// The host the client asked for, when a trusted proxy said.
    public let host: String?
    /// The path prefix the proxy removed (`X-Forwarded-Prefix`), when a trusted proxy said.
    public let prefix: String?

    /// Whether the client used HTTPS.
    public var isHTTPS: Bool { scheme == "https" }
}
