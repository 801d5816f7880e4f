// SPDX-License-Identifier: Apache-2.0
/// Appends the compact binary session format: unsigned LEB128 varints, zigzag for
/// signed numbers, strings as a length and UTF-8 bytes, optionals behind a 0/1 byte.
package struct SessionBytesWriter {
    package private(set) var bytes: [UInt8] = []

    package init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func byte(_ value: UInt8) { bytes.append(value) }

    mutating func raw(_ value: [UInt8]) { bytes.append(contentsOf: value) }

    /// An id's 16 bytes, big-endian (as `SessionID.bytes`, without making that array).
    package mutating func id(_ value: SessionID) {
        value.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    /// Empties it, keeping its storage for the next session (the SQLite writer encodes a
    /// whole group into one buffer).
    package mutating func removeAll() { bytes.removeAll(keepingCapacity: true) }

    mutating func unsigned(_ value: UInt64) {
        var rest = value
        while rest >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
            rest >>= 7
        }
        bytes.append(UInt8(rest))
    }

    mutating func signed(_ value: Int64) {
        unsigned(UInt64(bitPattern: (value << 1) ^ (value >> 63)))
    }

    mutating func string(_ value: String) {
        unsigned(UInt64(value.utf8.count))
        bytes.append(contentsOf: value.utf8)
    }

    mutating func optionalString(_ value: String?) {
        guard let value else { return byte(0) }
        byte(1)
        string(value)
    }

    mutating func strings(_ values: [String]) {
        unsigned(UInt64(values.count))
        for value in values { string(value) }
    }
}
