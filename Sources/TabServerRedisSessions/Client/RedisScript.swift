// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto

/// A Lua script for `RedisClient.evaluate`, sent by its SHA-1 (`EVALSHA`) and in full
/// (`EVAL`) only when the server does not have it cached yet (first use, or after a
/// restart or `SCRIPT FLUSH`).
///
/// ```swift
/// let incrementBy = RedisScript("return redis.call('INCRBY', KEYS[1], ARGV[1])")
/// let reply = try client.evaluate(incrementBy, keys: ["hits"], arguments: ["2"])
/// ```
public struct RedisScript: Sendable, Hashable {
    /// The Lua source.
    public let source: String
    /// The lowercase hex SHA-1 of `source`: the name Redis caches the script under.
    public let sha1: String

    /// A script with its SHA-1 computed once, here.
    public init(_ source: String) {
        self.source = source
        sha1 = Digest.hex(Digest.sha1(Array(source.utf8)))
    }
}
