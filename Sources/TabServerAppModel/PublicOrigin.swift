// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The scheme, host and port visitors use to reach the app (`https://shop.example.com`),
/// parsed once from `--public-origin`. When it is known, its scheme decides whether the
/// session cookie is `Secure`, whatever forwarded headers say.
///
/// ```swift
/// configuration.publicOrigin = try PublicOrigin("https://shop.example.com")
/// configuration.publicOrigin?.isHTTPS   // true
/// ```
public struct PublicOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The two schemes a browser reaches the app with.
    public enum Scheme: String, Sendable, Hashable {
        case http
        case https
    }

    /// `http` or `https`.
    public var scheme: Scheme
    /// The host name or address, lowercased (an IPv6 address without brackets).
    public var host: String
    /// The port when the origin names one.
    public var port: Int?

    /// An origin from its parts.
    public init(scheme: Scheme, host: String, port: Int? = nil) {
        self.scheme = scheme
        self.host = host
        self.port = port
    }

    /// Parses `http[s]://host[:port]` (a single trailing `/` is allowed). A path, query,
    /// credentials, another scheme or a port outside 1…65535 are refused, saying which.
    public init(_ text: String) throws(ConfigurationError) {
        func invalid(_ problem: String) -> ConfigurationError {
            ConfigurationError("'\(text)' \(problem); expected https://host[:port] without a path")
        }
        let lowered = text.lowercased()
        let scheme: Scheme
        let rest: Substring
        if lowered.hasPrefix("https://") {
            scheme = .https
            rest = lowered.dropFirst("https://".count)
        } else if lowered.hasPrefix("http://") {
            scheme = .http
            rest = lowered.dropFirst("http://".count)
        } else {
            throw invalid("has no http:// or https:// scheme")
        }
        var authority = rest
        if authority.hasSuffix("/") { authority = authority.dropLast() }
        if authority.contains("/") { throw invalid("has a path") }
        if authority.contains("?") || authority.contains("#") { throw invalid("has a query or fragment") }
        if authority.contains("@") { throw invalid("has credentials") }
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            guard after.isEmpty || after.hasPrefix(":") else { throw invalid("has text after the IPv6 address") }
            portText = after.isEmpty ? nil : after.dropFirst()
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw invalid("has a bracketed host that is not an IPv6 address")
            }
        } else {
            let parts = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty else { throw invalid("has no host") }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else {
                throw invalid("has a host with characters a host name cannot have")
            }
        }
        var port: Int? = nil
        if let portText {
            guard portText.count <= 5, portText.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(portText),
                (1...65_535).contains(value)
            else { throw invalid("has a port that is not a number from 1 to 65535") }
            port = value
        }
        self.init(scheme: scheme, host: String(host), port: port)
    }

    /// Whether visitors use HTTPS (cookies are then `Secure`).
    public var isHTTPS: Bool { scheme == .https }

    /// The origin as written: `https://shop.example.com:8443`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme.rawValue)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
    }
}
