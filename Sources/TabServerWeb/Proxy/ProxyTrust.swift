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

    /// Hops of `Forwarded` or `X-Forwarded-For` read, nearest first: a chain of more
    /// trusted proxies than this ends at the 16th (the client is then that hop's
    /// address), and a hostile list of thousands costs no more than a short one.
    public static let hopLimit = 16
    /// Longer items of a forwarded list are not addresses: taken as an untrusted client, cut.
    static let longestAddress = 64

    /// Whether the socket peer is a trusted proxy.
    public func trusts(_ address: String) -> Bool {
        guard !ranges.isEmpty, let bytes = AddressRange.parse(address) else { return false }
        return ranges.contains { $0.contains(parsed: bytes) }
    }

    /// The request as the client made it, from what trusted proxies say (the scheme is
    /// https when it came over the server's own TLS, unless a trusted proxy says otherwise).
    public func origin(of request: HTTPRequest) -> RequestOrigin {
        let peer = request.remoteAddress
        let ownScheme = request.isSecure ? "https" : "http"
        // A request that names no hop is its peer's, trusted or not: most requests, and
        // then no address is parsed.
        let fields = ForwardingFields(request.headers)
        guard !fields.isEmpty, trusts(peer) else {
            return RequestOrigin(client: peer, scheme: ownScheme, host: nil, prefix: nil)
        }
        var client = peer
        var scheme = ownScheme
        var host: String? = nil
        var prefix: String? = nil
        if let forwarded = ForwardedHeader(fields.forwarded, lastElements: Self.hopLimit) {
            // Walk from the nearest hop outwards: the first address not of a trusted
            // proxy is the client; scheme and host come from the nearest hop that says.
            for element in forwarded.elements.reversed() {
                if let address = element.for, !address.isEmpty {
                    // An obfuscated or malformed `for` is no address: the client is
                    // counted as the proxy that reported it.
                    guard AddressRange.parse(address) != nil else { break }
                    client = address
                    if !trusts(address) { break }
                }
            }
            if let last = forwarded.elements.last {
                scheme = last.proto ?? scheme
                host = last.host
            }
        } else {
            client = Self.client(forwardedFor: fields.forwardedFor, peer: peer, trust: self)
            if let proto = Self.lastValue(fields.forwardedProto) { scheme = proto.lowercased() }
            host = Self.lastValue(fields.forwardedHost)
        }
        prefix = Self.lastValue(fields.forwardedPrefix)
        if scheme != "https" { scheme = "http" }
        return RequestOrigin(client: client, scheme: scheme, host: host, prefix: prefix)
    }

    /// The last item of the last field, spaces removed; nil when empty.
    private static func lastValue(_ values: [String]) -> String? {
        guard let value = values.last else { return nil }
        let item =
            value.utf8.lastIndex(of: UInt8(ascii: ",")).map { value[value.utf8.index(after: $0)...] } ?? value[...]
        let trimmed = String(item.trimmingASCIISpaces().prefix(longestParameterValue).filter { $0 != " " })
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Longer forwarded scheme, host and prefix values are cut to this (a host is at most 253 bytes).
    static let longestParameterValue = 512

    /// The client of an `X-Forwarded-For` chain: walking from the nearest hop, the first
    /// address that is not a trusted proxy's, or the farthest of the first `hopLimit`.
    /// Entries are read as `Forwarded`'s `for` is: a port (`192.0.2.1:8080`) and brackets
    /// (`[2001:db8::1]:443`) are removed, so each port of one client is still that client.
    /// An entry that is then no address (a name, `unknown`, garbage) ends the walk with
    /// the client counted as the proxy that reported it: what it said cannot key a budget.
    private static func client(forwardedFor values: [String], peer: String, trust: ProxyTrust) -> String {
        var client = peer
        var read = 0
        for value in values.reversed() {
            var rest = value[...]
            while !rest.isEmpty {
                guard read < hopLimit else { return client }
                read += 1
                let item: Substring
                if let comma = rest.utf8.lastIndex(of: UInt8(ascii: ",")) {
                    item = rest[rest.utf8.index(after: comma)...]
                    rest = rest[..<comma]
                } else {
                    item = rest
                    rest = rest[rest.startIndex..<rest.startIndex]
                }
                let trimmed = item.trimmingASCIISpaces()
                guard !trimmed.isEmpty else { continue }
                guard trimmed.utf8.count <= longestAddress else { return client }
                let address = ForwardedHeader.address(trimmed)
                guard AddressRange.parse(address) != nil else { return client }
                client = address
                if !trust.trusts(address) { return client }
            }
        }
        return client
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
