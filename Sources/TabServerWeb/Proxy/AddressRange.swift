// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// An IPv4 or IPv6 address range in CIDR notation ("127.0.0.0/8", "::1", "10.1.2.3/32").
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    private let network: [UInt8]
    private let prefixLength: Int
    public let description: String

    /// Parses "ADDRESS" or "ADDRESS/BITS"; nil when it is neither.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1)
        guard let addressPart = parts.first, let bytes = Self.parse(String(addressPart)) else { return nil }
        let maximum = bytes.count * 8
        let length: Int
        if parts.count == 2 {
            guard let bits = Int(parts[1]), (0...maximum).contains(bits) else { return nil }
            length = bits
        } else {
            length = maximum
        }
        network = Self.mask(bytes, length)
        prefixLength = length
        description = text
    }

    /// `127.0.0.0/8`, every IPv4 loopback address.
    public static let loopbackIPv4 = AddressRange(network: [127, 0, 0, 0], prefixLength: 8, description: "127.0.0.0/8")
    /// `::1`, the IPv6 loopback address.
    public static let loopbackIPv6 = AddressRange(
        network: Array(repeating: 0, count: 15) + [1], prefixLength: 128, description: "::1")

    private init(network: [UInt8], prefixLength: Int, description: String) {
        self.network = network
        self.prefixLength = prefixLength
        self.description = description
    }

    /// Whether `address` (textual, as the engine reports peers) lies in the range.
    public func contains(_ address: String) -> Bool {
        guard let bytes = Self.parse(address) else { return false }
        return contains(parsed: bytes)
    }

    /// Whether the address `parse` made of a text lies in the range (a list of ranges
    /// parses its address once, not once a range). Compared in place: no array is made.
    func contains(parsed bytes: [UInt8]) -> Bool {
        // An IPv4 peer seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 address.
        var offset = 0
        if bytes.count == 16 && network.count == 4 && bytes[0..<10].allSatisfy({ $0 == 0 })
            && bytes[10] == 0xFF && bytes[11] == 0xFF
        {
            offset = 12
        }
        guard bytes.count - offset == network.count else { return false }
        for index in 0..<network.count {
            let bits = max(0, min(8, prefixLength - index * 8))
            let mask: UInt8 = bits == 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if bytes[offset + index] & mask != network[index] { return false }
        }
        return true
    }

    /// The address's bytes (4 for IPv4, 16 for IPv6), nil when it is neither.
    package static func parse(_ text: String) -> [UInt8]? {
        // IPv4 by hand (`dottedQuad` takes what inet_pton takes), IPv6 by inet_pton.
        if let v4 = dottedQuad(text) { return v4 }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }

    /// `a.b.c.d` with four decimal numbers of at most 255 and no leading zeros (what
    /// `inet_pton` accepts for IPv4), parsed here: every request asks whether its peer is a
    /// trusted proxy, and `inet_pton` would need the text made a C string each time.
    private static func dottedQuad(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var value = 0
        var digits = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") {
                guard digits > 0, bytes.count < 3 else { return nil }
                bytes.append(UInt8(value))
                value = 0
                digits = 0
            } else if byte &- UInt8(ascii: "0") < 10 {
                // A leading zero is refused, as inet_pton does.
                guard !(digits > 0 && value == 0) else { return nil }
                value = value * 10 + Int(byte &- UInt8(ascii: "0"))
                digits += 1
                guard value <= 255 else { return nil }
            } else {
                return nil
            }
        }
        guard digits > 0, bytes.count == 3 else { return nil }
        bytes.append(UInt8(value))
        return bytes
    }

    private static func mask(_ bytes: [UInt8], _ length: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = max(0, min(8, length - index * 8))
            return bits == 8 ? byte : byte & ~(0xFF >> UInt8(bits))
        }
    }
}
