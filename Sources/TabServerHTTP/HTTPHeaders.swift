// SPDX-License-Identifier: Apache-2.0
/// An ordered list of header fields. Names keep the spelling they were given (so the
/// wire shows `Content-Type`) and compare case-insensitively, as HTTP requires.
///
/// ```swift
/// var headers = HTTPHeaders()
/// headers.add("Content-Type", "text/html; charset=utf-8")
/// headers["content-type"]   // "text/html; charset=utf-8"
/// ```
public struct HTTPHeaders: Sendable, Hashable, Sequence {
    /// One header field.
    public struct Field: Sendable, Hashable {
        public let name: String
        public let value: String
    }

    @usableFromInline var fields: [Field]

    /// An empty header list.
    public init() { fields = [] }

    /// An empty header list with room for `capacity` fields, so filling it allocates once
    /// (growing one field at a time reallocates four times on the way to nine).
    public init(capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Headers from name/value pairs, in order.
    public init(_ pairs: [(String, String)]) {
        fields = pairs.map { Field(name: $0.0, value: $0.1) }
    }

    /// Appends a field (repeats are kept: `Set-Cookie`, or a duplicate `Content-Length`
    /// the framing check must see).
    public mutating func add(_ name: String, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field of that name with one.
    public mutating func replace(_ name: String, _ value: String) {
        remove(name)
        fields.append(Field(name: name, value: value))
    }

    /// Removes every field of that name.
    public mutating func remove(_ name: String) {
        fields.removeAll { Self.namesEqual($0.name, name) }
    }

    /// The first value of the field, if present.
    public subscript(name: String) -> String? {
        // The name's length once, compared here for each field: most fields differ in
        // length, and a call to compare them cost more than the comparison.
        let length = name.utf8.count
        return firstFieldResult { fieldName, value in
            fieldName.utf8.count == length && Self.namesEqual(fieldName, name) ? value : nil
        }
    }

    /// Every value of the field, in order.
    public func values(_ name: String) -> [String] {
        var values: [String] = []
        let length = name.utf8.count
        forEachField { fieldName, value in
            if fieldName.utf8.count == length && Self.namesEqual(fieldName, name) { values.append(value) }
        }
        return values
    }

    /// Calls `body` with each field's name and value, in order.
    ///
    /// The fields are read where they are stored: iterating the headers as a `Sequence`
    /// copies each field out (a retain and a release of its name and value), and every
    /// look-up of every request walks all fields.
    @inlinable
    public func forEachField(_ body: (_ name: String, _ value: String) throws -> Void) rethrows {
        try fields.withUnsafeBufferPointer { fields in
            for index in fields.indices { try body(fields[index].name, fields[index].value) }
        }
    }

    /// The first non-nil result of `transform` over the fields' names and values, in
    /// order, read in place like `forEachField`.
    @inlinable
    public func firstFieldResult<Result>(_ transform: (_ name: String, _ value: String) throws -> Result?) rethrows
        -> Result?
    {
        try fields.withUnsafeBufferPointer { fields in
            for index in fields.indices {
                if let result = try transform(fields[index].name, fields[index].value) { return result }
            }
            return nil
        }
    }

    /// Whether the field is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// The number of fields.
    public var count: Int { fields.count }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    @inline(__always)
    private static func fold(_ byte: UInt8) -> UInt8 { byte &- 65 < 26 ? byte | 0x20 : byte }

    /// Eight bytes with their ASCII capitals made small (`A`–`Z` gain bit 0x20; every
    /// other byte, non-ASCII included, is kept), without a branch per byte.
    @inline(__always)
    private static func folded(_ word: UInt64) -> UInt64 {
        let low = word & 0x7F7F_7F7F_7F7F_7F7F  // each byte below 0x80, so no sum carries into the next
        let fromA = low &+ 0x3F3F_3F3F_3F3F_3F3F  // bit 7 set where the byte is at least "A" (0x41)
        let pastZ = low &+ 0x2525_2525_2525_2525  // bit 7 set where the byte is past "Z" (0x5B and up)
        let capitals = fromA & ~pastZ & ~word & 0x8080_8080_8080_8080
        return word | (capitals &>> 2)
    }

    /// Whether two byte runs of the same length are equal, ignoring ASCII case: eight
    /// bytes a step (the last step overlapping the one before), a byte a step below eight.
    @inline(__always)
    private static func foldedEqual(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = left.count
        guard count > 0, let leftBytes = left.baseAddress, let rightBytes = right.baseAddress else { return true }
        guard count >= 8 else {
            for index in 0..<count where fold(leftBytes[index]) != fold(rightBytes[index]) { return false }
            return true
        }
        let leftWords = UnsafeRawPointer(leftBytes)
        let rightWords = UnsafeRawPointer(rightBytes)
        var offset = 0
        while true {
            offset = Swift.min(offset, count - 8)
            let leftWord = leftWords.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            let rightWord = rightWords.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            if leftWord != rightWord && folded(leftWord) != folded(rightWord) { return false }
            if offset == count - 8 { return true }
            offset += 8
        }
    }

    /// ASCII case-insensitive comparison without allocating (field names are ASCII tokens).
    public static func namesEqual(_ lhs: String, _ rhs: String) -> Bool {
        // Lengths first: O(1) for native strings, and most names differ in length. Then the
        // bytes in place, eight at a time: each header look-up of every request compares
        // names, and walking two `UTF8View` iterators goes through String's index machinery
        // for each byte.
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        let compared = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in foldedEqual(left, right) }
        }
        if let compared, let result = compared { return result }
        return lhs.utf8.elementsEqual(rhs.utf8) { fold($0) == fold($1) }
    }
}
