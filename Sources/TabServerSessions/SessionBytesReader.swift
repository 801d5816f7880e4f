// SPDX-License-Identifier: Apache-2.0
/// Reads what `SessionBytesWriter` wrote; every read checks the bounds and throws
/// `SessionBytesReader.Malformed` at the first byte that does not fit.
struct SessionBytesReader {
    /// The bytes end early or hold a value no writer produces.
    struct Malformed: Error {}

    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { position == bytes.count }

    mutating func byte() throws(Malformed) -> UInt8 {
        guard position < bytes.count else { throw Malformed() }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func raw(count: Int) throws(Malformed) -> [UInt8] {
        guard count >= 0, bytes.count - position >= count else { throw Malformed() }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func unsigned() throws(Malformed) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let next = try byte()
            guard shift < 64 else { throw Malformed() }
            value |= UInt64(next & 0x7F) << shift
            if next < 0x80 { return value }
            shift += 7
        }
    }

    mutating func signed() throws(Malformed) -> Int64 {
        let zigzag = try unsigned()
        return Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1)
    }

    /// A count of following items, refused when it could not fit in what is left.
    mutating func count() throws(Malformed) -> Int {
        let value = try unsigned()
        guard value <= UInt64(bytes.count - position) else { throw Malformed() }
        return Int(value)
    }

    mutating func string() throws(Malformed) -> String {
        let length = try count()
        defer { position += length }
        guard let text = String(validating: bytes[position..<position + length], as: UTF8.self) else {
            throw Malformed()
        }
        return text
    }

    mutating func optionalString() throws(Malformed) -> String? {
        try flag() ? try string() : nil
    }

    mutating func flag() throws(Malformed) -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    mutating func strings() throws(Malformed) -> [String] {
        let total = try count()
        var values: [String] = []
        values.reserveCapacity(total)
        for _ in 0..<total { values.append(try string()) }
        return values
    }
}
