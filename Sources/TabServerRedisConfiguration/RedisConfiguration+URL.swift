// SPDX-License-Identifier: Apache-2.0
extension RedisConfiguration {
    /// Parses `redis://host[:port][/database]`: port 6379 and database 0 when left out;
    /// an IPv6 address goes in brackets (`redis://[::1]:6380/1`).
    ///
    /// Refused with a `RedisError` of kind `.invalidURL` saying what is wrong: another
    /// scheme (including `rediss://`, since TLS is not supported), credentials, a query
    /// or fragment, an empty host, a port outside 1…65535, a database that is not a
    /// non-negative number, or anything after the database.
    public init(url: String) throws(RedisError) {
        func invalid(_ problem: String) -> RedisError {
            RedisError(.invalidURL, "invalid Redis URL \"\(url)\": \(problem); expected redis://host[:port][/database]")
        }
        let scheme = "redis://"
        guard url.lowercased().hasPrefix(scheme) else {
            if url.lowercased().hasPrefix("rediss://") { throw invalid("TLS (rediss://) is not supported") }
            throw invalid(url.contains("://") ? "the scheme must be redis" : "missing redis:// scheme")
        }
        let rest = url.dropFirst(scheme.count)
        if rest.isEmpty { throw invalid("the host is empty") }
        if rest.contains(where: { $0.isWhitespace || $0.isNewline }) { throw invalid("it contains white space") }
        if rest.contains("?") || rest.contains("#") { throw invalid("query and fragment are not supported") }
        if rest.contains("@") { throw invalid("credentials in the URL are not supported") }

        let authority: Substring
        let path: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = rest[rest.index(after: slash)...]
        } else {
            authority = rest
            path = ""
        }

        // Host, then an optional ":port".
        let host: Substring
        let portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw invalid("unclosed [ in the host") }
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty {
                portText = nil
            } else if after.hasPrefix(":") {
                portText = after.dropFirst()
            } else {
                throw invalid("unexpected text after the bracketed host")
            }
            guard !host.isEmpty, host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw invalid("the bracketed host is not an IPv6 address")
            }
        } else {
            let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw invalid("an IPv6 host must be written in brackets") }
            host = parts[0]
            portText = parts.count == 2 ? parts[1] : nil
            guard !host.isEmpty else { throw invalid("the host is empty") }
            guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") })
            else { throw invalid("the host \"\(host)\" has characters a host name cannot have") }
        }

        var port = 6379
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), portText.count <= 5,
                let value = Int(portText), (1...65_535).contains(value)
            else { throw invalid("the port must be a number from 1 to 65535") }
            port = value
        }

        var database = 0
        if !path.isEmpty {
            guard path.allSatisfy({ $0.isASCII && $0.isNumber }), path.count <= 9, let value = Int(path) else {
                throw invalid("the database must be a non-negative number, as in /0")
            }
            database = value
        }

        self.init(host: String(host), port: port, database: database)
    }
}
