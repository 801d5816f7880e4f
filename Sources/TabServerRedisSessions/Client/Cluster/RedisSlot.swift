// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Redis Cluster's key-to-slot rule: CRC16 (the XMODEM variant: polynomial 0x1021, no
/// reflection, start 0) of the key modulo 16384. When the key holds a `{…}` with
/// something between the braces (the first `{` and the first `}` after it), only that
/// part, the hash tag, is hashed, so keys that share a tag share a slot.
///
/// ```swift
/// RedisSlot.of(Array("{user1000}.following".utf8)) == RedisSlot.of(Array("user1000".utf8))   // true
/// ```
public enum RedisSlot {
    /// Slots in a Redis Cluster.
    public static let count = 16_384

    /// The slot of `key`.
    public static func of(_ key: [UInt8]) -> Int {
        Int(crc16(hashedPart(of: key)) & 0x3FFF)
    }

    /// A short hash tag whose slot is `slot` ("r" and a number, found by counting up, once
    /// per slot): `{tag}` in a key puts it there. For probes aimed at one primary.
    public static func tag(for slot: Int) -> String {
        if let known = tags.withLock({ $0[slot] }) { return known }
        var number = 0
        while of(Array("r\(number)".utf8)) != slot { number += 1 }
        tags.withLock { $0[slot] = "r\(number)" }
        return "r\(number)"
    }

    private static let tags = Mutex<[Int: String]>([:])

    /// The part of `key` that decides its slot: the hash tag when it has one, else all of it.
    static func hashedPart(of key: [UInt8]) -> ArraySlice<UInt8> {
        guard let open = key.firstIndex(of: UInt8(ascii: "{")),
            let close = key[(open + 1)...].firstIndex(of: UInt8(ascii: "}")), close > open + 1
        else { return key[...] }
        return key[(open + 1)..<close]
    }

    /// The key a command acts on, for routing: the first key of `EVAL`/`EVALSHA` (after
    /// the script and the key count), nil for commands that name no key (`PING`, `INFO`,
    /// `WAIT`, or a script given no key), else the first argument. The commands the
    /// session store sends name one key each, so the first one decides.
    public static func routingKey(of command: [[UInt8]]) -> [UInt8]? {
        guard let name = command.first else { return nil }
        switch String(decoding: name, as: UTF8.self).uppercased() {
        case "EVAL", "EVALSHA", "EVAL_RO", "EVALSHA_RO", "FCALL", "FCALL_RO":
            guard command.count > 3, let keys = Int(String(decoding: command[2], as: UTF8.self)), keys > 0 else {
                return nil
            }
            return command[3]
        case "PING", "INFO", "WAIT", "CLUSTER", "ASKING", "READONLY", "ROLE", "SCRIPT", "DBSIZE", "TIME", "ECHO":
            return nil
        default:
            return command.count > 1 ? command[1] : nil
        }
    }

    /// CRC16/XMODEM of `bytes`.
    static func crc16(_ bytes: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc = (crc << 8) ^ table[Int(UInt8(truncatingIfNeeded: crc >> 8) ^ byte)]
        }
        return crc
    }

    /// The CRC of each byte value, computed once.
    private static let table: [UInt16] = (0..<256).map { value in
        var crc = UInt16(value) << 8
        for _ in 0..<8 {
            crc = crc & 0x8000 != 0 ? (crc << 1) ^ 0x1021 : crc << 1
        }
        return crc
    }
}
