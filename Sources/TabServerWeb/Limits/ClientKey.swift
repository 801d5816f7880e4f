// SPDX-License-Identifier: Apache-2.0
/// Who a per-client budget counts a request against: an IPv4 address (an IPv4 peer seen
/// through an IPv6 socket as well), or an IPv6 /64 — the least one customer's network is
/// given, so one host cannot take a fresh budget from each of its 2^64 addresses.
/// Anything else (a name a proxy reported, a malformed value) counts as its own text.
public struct ClientKey: Sendable, Hashable, CustomStringConvertible {
    private enum Kind: Hashable {
        case ipv4(UInt32)
        case ipv6(UInt64)
        case other(String)
    }

    private let kind: Kind

    /// The key of a client at `address`, as the engine or a trusted proxy reports it.
    public init(address: String) {
        guard let bytes = AddressRange.parse(address) else {
            kind = .other(String(address.prefix(64)))
            return
        }
        if bytes.count == 4 {
            kind = .ipv4(Self.integer(bytes[0..<4]))
        } else if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            kind = .ipv4(Self.integer(bytes[12..<16]))
        } else {
            kind = .ipv6(UInt64(Self.integer(bytes[0..<4])) << 32 | UInt64(Self.integer(bytes[4..<8])))
        }
    }

    private static func integer(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// `a.b.c.d`, `xxxx:xxxx:xxxx:xxxx::/64` or the text counted.
    public var description: String {
        switch kind {
        case .ipv4(let value):
            return (0..<4).map { String(value >> (24 - 8 * UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .ipv6(let prefix):
            let groups = (0..<4).map { String(prefix >> (48 - 16 * UInt64($0)) & 0xFFFF, radix: 16) }
            return groups.joined(separator: ":") + "::/64"
        case .other(let text):
            return text
        }
    }
}
