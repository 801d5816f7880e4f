// SPDX-License-Identifier: Apache-2.0
/// Which addresses the server may post push messages to: public unicast ones only. A
/// subscription's endpoint comes from a browser, so without this check anyone could make
/// the server send requests into its own network (SSRF). The check applies to every
/// address the endpoint's name resolves to, and the connection goes to an address that
/// passed it (never to the name again, which could resolve elsewhere the second time).
///
/// ```swift
/// PushAddressPolicy.standard.allows([93, 184, 216, 34])   // true
/// PushAddressPolicy.standard.allows([10, 0, 0, 1])        // false
/// ```
public struct PushAddressPolicy: Sendable, Equatable {
    /// Whether loopback addresses (127.0.0.0/8, ::1) are allowed: for tests only, with
    /// `--push-allow-loopback`.
    public let allowsLoopback: Bool

    /// Public addresses only.
    public static let standard = PushAddressPolicy(allowsLoopback: false)
    /// Public addresses and loopback (tests).
    public static let testingLoopback = PushAddressPolicy(allowsLoopback: true)

    /// Whether `address` (4 bytes IPv4, 16 bytes IPv6, network order) may be posted to.
    public func allows(_ address: [UInt8]) -> Bool {
        if address.count == 4 { return allowsIPv4(address) }
        guard address.count == 16 else { return false }
        // An IPv4 address in IPv6 clothing (mapped, compatible, NAT64, 6to4) is judged
        // as the IPv4 address it carries, or refused where it cannot be told.
        if address[0..<10].allSatisfy({ $0 == 0 }) && address[10] == 0xFF && address[11] == 0xFF {
            return allowsIPv4(Array(address[12..<16]))
        }
        if allowsLoopback && address[0..<15].allSatisfy({ $0 == 0 }) && address[15] == 1 { return true }
        return Self.isPublicIPv6(address)
    }

    private func allowsIPv4(_ a: [UInt8]) -> Bool {
        if allowsLoopback && a[0] == 127 { return true }
        return Self.isPublicIPv4(a)
    }

    /// Refuses this network (0/8), private (10/8, 172.16/12, 192.168/16), shared (100.64/10),
    /// loopback (127/8), link-local (169.254/16), the IETF's and documentation ranges
    /// (192.0.0/24, 192.0.2/24, 198.51.100/24, 203.0.113/24), 6to4 relays (192.88.99/24),
    /// benchmarking (198.18/15), multicast and reserved (224/3, with the broadcast address).
    static func isPublicIPv4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1], a[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return false
        case (100, 64...127, _): return false
        case (169, 254, _): return false
        case (172, 16...31, _): return false
        case (192, 0, 0), (192, 0, 2), (192, 88, 99): return false
        case (192, 168, _): return false
        case (198, 18...19, _), (198, 51, 100): return false
        case (203, 0, 113): return false
        case (224...255, _, _): return false
        default: return true
        }
    }

    /// Only global unicast (2000::/3) outside the special ranges: IETF protocol
    /// assignments with Teredo (2001::/23), documentation (2001:db8::/32, 3fff::/20),
    /// 6to4 (2002::/16); so never unspecified, loopback, IPv4-compatible or NAT64
    /// (64:ff9b::/96), discard (100::/64), unique local (fc00::/7), link-local (fe80::/10),
    /// site-local (fec0::/10) or multicast (ff00::/8).
    static func isPublicIPv6(_ a: [UInt8]) -> Bool {
        guard a[0] & 0xE0 == 0x20 else { return false }
        if a[0] == 0x20 && a[1] == 0x01 && a[2] < 0x02 { return false }
        if a[0] == 0x20 && a[1] == 0x01 && a[2] == 0x0D && a[3] == 0xB8 { return false }
        if a[0] == 0x20 && a[1] == 0x02 { return false }
        if a[0] == 0x3F && a[1] == 0xFF && a[2] & 0xF0 == 0 { return false }
        return true
    }
}
