// SPDX-License-Identifier: Apache-2.0
extension RedisConfiguration {
    /// Parses `redis://host[:port][/database]`: port 6379 and database 0 when left out;
    /// an IPv6 address goes in brackets (`redis://[::1]:6380/1`). Or, for a master that
    /// Redis Sentinel watches, `redis-sentinel://host[:port][,host[:port]…]/master[/database]`:
    /// the sentinels (port 26379 when left out) and the name they monitor the master by.
    /// Or, for a Redis Cluster, `redis-cluster://host[:port][,host[:port]…]`: a few of its
    /// nodes (port 6379 when left out), asked for the slot map; a cluster has database 0
    /// only, so no database may follow (a trailing `/` or `/0` is allowed).
    ///
    /// Refused with a `RedisError` of kind `.invalidURL` saying what is wrong: another
    /// scheme (including `rediss://`, since TLS is not supported), credentials, a query
    /// or fragment, an empty host, a port outside 1…65535, a database that is not a
    /// non-negative number, or anything after the database; for Sentinel also a missing
    /// or malformed master name; for a cluster also a database other than 0.
    public init(url: String) throws(RedisError) {
        if url.lowercased().hasPrefix(Self.sentinelScheme) {
            self = try Self.sentinelConfiguration(url: url)
            return
        }
        if url.lowercased().hasPrefix(Self.clusterScheme) {
            self = try Self.clusterConfiguration(url: url)
            return
        }
        func invalid(_ problem: String) -> RedisError {
            RedisError(.invalidURL, "invalid Redis URL \"\(url)\": \(problem); expected redis://host[:port][/database]")
        }
        let scheme = "redis://"
        guard url.lowercased().hasPrefix(scheme) else {
            if url.lowercased().hasPrefix("rediss://") { throw invalid("TLS (rediss://) is not supported") }
            throw invalid(
                url.contains("://")
                    ? "the scheme must be redis, redis-sentinel or redis-cluster" : "missing redis:// scheme")
        }
        let rest = url.dropFirst(scheme.count)
        try Self.checkCharacters(rest, invalid)

        let authority: Substring
        let path: Substring
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            path = rest[rest.index(after: slash)...]
        } else {
            authority = rest
            path = ""
        }
        let (host, port) = try Self.hostAndPort(authority, defaultPort: 6379, invalid)
        let database = try Self.database(path, invalid)
        self.init(host: host, port: port, database: database)
    }

    private static let sentinelScheme = "redis-sentinel://"

    private static func sentinelConfiguration(url: String) throws(RedisError) -> RedisConfiguration {
        func invalid(_ problem: String) -> RedisError {
            RedisError(
                .invalidURL,
                "invalid Redis URL \"\(url)\": \(problem); expected redis-sentinel://host[:port][,host[:port]…]/master[/database]"
            )
        }
        let rest = url.dropFirst(sentinelScheme.count)
        try checkCharacters(rest, invalid)
        guard let slash = rest.firstIndex(of: "/") else { throw invalid("the master name is missing") }
        let hosts = rest[..<slash]
        let path = rest[rest.index(after: slash)...]
        var addresses: [RedisSentinels.Address] = []
        for authority in hosts.split(separator: ",", omittingEmptySubsequences: false) {
            let (host, port) = try hostAndPort(authority, defaultPort: RedisSentinels.defaultPort, invalid)
            addresses.append(RedisSentinels.Address(host: host, port: port))
        }
        let parts = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        let name = parts.first ?? ""
        guard !name.isEmpty else { throw invalid("the master name is missing") }
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_") })
        else { throw invalid("the master name \"\(name)\" may hold only letters, digits, '.', '-' and '_'") }
        let database = try self.database(parts.count == 2 ? parts[1] : "", invalid)
        return RedisConfiguration(
            sentinels: RedisSentinels(addresses: addresses, masterName: String(name)), database: database)
    }

    private static let clusterScheme = "redis-cluster://"

    private static func clusterConfiguration(url: String) throws(RedisError) -> RedisConfiguration {
        func invalid(_ problem: String) -> RedisError {
            RedisError(
                .invalidURL,
                "invalid Redis URL \"\(url)\": \(problem); expected redis-cluster://host[:port][,host[:port]…]")
        }
        let rest = url.dropFirst(clusterScheme.count)
        try checkCharacters(rest, invalid)
        let hosts: Substring
        if let slash = rest.firstIndex(of: "/") {
            hosts = rest[..<slash]
            let path = rest[rest.index(after: slash)...]
            guard path.isEmpty || path == "0" else {
                throw invalid("a cluster has database 0 only, so nothing may follow the nodes but /0")
            }
        } else {
            hosts = rest
        }
        var nodes: [RedisClusterSeeds.Address] = []
        for authority in hosts.split(separator: ",", omittingEmptySubsequences: false) {
            let (host, port) = try hostAndPort(authority, defaultPort: RedisClusterSeeds.defaultPort, invalid)
            let node = RedisClusterSeeds.Address(host: host, port: port)
            guard !nodes.contains(node) else { throw invalid("the node \(node.endpoint) is named twice") }
            nodes.append(node)
        }
        return RedisConfiguration(cluster: RedisClusterSeeds(nodes: nodes))
    }

    /// What no kind of URL may hold anywhere after the scheme.
    private static func checkCharacters(_ rest: Substring, _ invalid: (String) -> RedisError) throws(RedisError) {
        if rest.isEmpty { throw invalid("the host is empty") }
        if rest.contains(where: { $0.isWhitespace || $0.isNewline }) { throw invalid("it contains white space") }
        if rest.contains("?") || rest.contains("#") { throw invalid("query and fragment are not supported") }
        if rest.contains("@") { throw invalid("credentials in the URL are not supported") }
    }

    /// A host, then an optional ":port".
    private static func hostAndPort(
        _ authority: Substring, defaultPort: Int, _ invalid: (String) -> RedisError
    ) throws(RedisError) -> (String, Int) {
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

        var port = defaultPort
        if let portText {
            guard !portText.isEmpty, portText.allSatisfy({ $0.isASCII && $0.isNumber }), portText.count <= 5,
                let value = Int(portText), (1...65_535).contains(value)
            else { throw invalid("the port must be a number from 1 to 65535") }
            port = value
        }
        return (String(host), port)
    }

    /// The database after the last slash: 0 when empty.
    private static func database(_ path: Substring, _ invalid: (String) -> RedisError) throws(RedisError) -> Int {
        guard !path.isEmpty else { return 0 }
        guard path.allSatisfy({ $0.isASCII && $0.isNumber }), path.count <= 9, let value = Int(path) else {
            throw invalid("the database must be a non-negative number, as in /0")
        }
        return value
    }
}
