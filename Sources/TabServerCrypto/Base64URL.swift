// SPDX-License-Identifier: Apache-2.0
/// Unpadded base64url (RFC 4648 §5), the alphabet of session ids and tokens: safe in
/// cookies, form fields and URLs without escaping. Written by hand because the
/// toolchain's only encoder lives in Foundation, which the hot path avoids.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    private static let decodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = UInt8(index) }
        return table
    }()

    /// Encodes `bytes` without padding.
    public static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index + 3 <= bytes.count {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
            out.append(alphabet[Int(n & 63)])
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let n = UInt32(bytes[index]) << 16
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
        } else if rest == 2 {
            let n = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)])
            out.append(alphabet[Int(n >> 12 & 63)])
            out.append(alphabet[Int(n >> 6 & 63)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes exactly 22 characters of unpadded base64url into the 128 bits they spell,
    /// big-endian, without allocating (a session cookie on every request); nil as
    /// `decode` would refuse it, or for another length.
    public static func decode128(_ text: String) -> (high: UInt64, low: UInt64)? {
        var text = text
        return text.withUTF8(decode128)
    }

    /// `decode128` of a substring (a cookie value cut out of its header).
    public static func decode128(_ text: Substring) -> (high: UInt64, low: UInt64)? {
        decode128(String(text))
    }

    /// `decode128` of bytes in place (a cookie value in its header).
    public static func decode128(_ bytes: UnsafeBufferPointer<UInt8>) -> (high: UInt64, low: UInt64)? {
        guard bytes.count == 22 else { return nil }
        // 22 characters are 132 bits: 21 of them make the first 126 bits, the last one two
        // more and four that must be zero. Shifted into one 128-bit word over the table's
        // own storage, not through the generic decoder and its closure: every request with
        // a session cookie decodes it here.
        return decodeTable.withUnsafeBufferPointer { table -> (high: UInt64, low: UInt64)? in
            var value: UInt128 = 0
            var invalid: UInt8 = 0
            for index in 0..<21 {
                let six = table[Int(bytes[index])]
                invalid |= six
                value = value << 6 | UInt128(six & 0x3F)
            }
            let last = table[Int(bytes[21])]
            // A byte outside the alphabet is 0xFF in the table: its top bits mark it.
            guard (invalid | last) & 0xC0 == 0, last & 0x0F == 0 else { return nil }
            value = value << 2 | UInt128(last >> 4)
            return (UInt64(truncatingIfNeeded: value >> 64), UInt64(truncatingIfNeeded: value))
        }
    }

    /// Calls `emit` with each decoded byte of `input`, in order; false (after emitting
    /// some) for a character outside the alphabet or non-zero trailing bits.
    @inline(__always)
    private static func decodeBytes(_ input: some Sequence<UInt8>, _ emit: (UInt8) -> Void) -> Bool {
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = decodeTable[Int(byte)]
            if value == 0xFF { return false }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                emit(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return bits == 0 || accumulator & ((1 << UInt32(bits)) - 1) == 0
    }

    /// Decodes unpadded base64url; nil for any character outside the alphabet, an
    /// impossible length, or non-zero trailing bits (so each value has one spelling).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        if input.count % 4 == 1 { return nil }
        var out = [UInt8]()
        out.reserveCapacity(input.count * 3 / 4)
        return decodeBytes(input) { out.append($0) } ? out : nil
    }
}
