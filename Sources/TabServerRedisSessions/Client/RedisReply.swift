// SPDX-License-Identifier: Apache-2.0
/// One reply from Redis, copied out of hiredis's reply object (which is freed at once).
///
/// ```swift
/// switch try connection.command(["GET", "greeting"]) {
/// case .bulkString(let bytes): print(String(decoding: bytes, as: UTF8.self))
/// case .null: print("no such key")
/// default: break
/// }
/// ```
public enum RedisReply: Sendable, Hashable {
    /// A bulk string: binary-safe bytes (`GET`, `HGET`, …).
    case bulkString([UInt8])
    /// An integer (`INCR`, `EXISTS`, `TTL`, …).
    case integer(Int)
    /// An array of replies (`HMGET`, `EXEC`, script results, …).
    case array([RedisReply])
    /// The null reply (a missing key, a Lua `false`).
    case null
    /// A status reply, e.g. `OK` or `PONG`.
    case status(String)
    /// An error reply, e.g. `NOSCRIPT No matching script`. The connection stays usable.
    case error(String)
}
