// SPDX-License-Identifier: Apache-2.0
/// Decodes one `SQLiteRow` as a `Decodable` type: a keyed container whose keys are the
/// columns, each column's value read as one value. (Written here: the toolchain's
/// decoders read JSON and property lists, not rows.)
struct SQLiteRowDecoder: Decoder {
    /// A column that does not fit the property read from it.
    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    let row: SQLiteRow
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(Columns<Key>(row: row))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw Mismatch(description: "a row decodes as a type with properties, not as a list")
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        guard row.values.count == 1 else {
            throw Mismatch(description: "a row of \(row.values.count) columns decodes as a type with properties")
        }
        return SQLiteValueDecoder(value: row.values[0], column: row.columns[0])
    }

    /// The row's columns by name.
    struct Columns<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let row: SQLiteRow
        var codingPath: [any CodingKey] { [] }
        var allKeys: [Key] { row.columns.compactMap { Key(stringValue: $0) } }

        func contains(_ key: Key) -> Bool { row[key.stringValue] != nil }

        func value(_ key: Key) throws -> SQLiteValueDecoder {
            guard let value = row[key.stringValue] else {
                throw Mismatch(
                    description: "no column '\(key.stringValue)' (the row has \(row.columns.joined(separator: ", ")))")
            }
            return SQLiteValueDecoder(value: value, column: key.stringValue)
        }

        func decodeNil(forKey key: Key) throws -> Bool { try value(key).decodeNil() }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try value(key).decode(type)
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try value(key).decode(type) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try value(key).decode(type) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try value(key).decode(type) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try value(key).decode(type) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try value(key).decode(type) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try value(key).decode(type) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try value(key).decode(type) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try value(key).decode(type) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try value(key).decode(type) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try value(key).decode(type) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try value(key).decode(type) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try value(key).decode(type) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try value(key).decode(type) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try value(key).decode(type) }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
            -> KeyedDecodingContainer<NestedKey>
        {
            throw Mismatch(description: "column '\(key.stringValue)': one value, not a type with properties")
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            throw Mismatch(description: "column '\(key.stringValue)': one value, not a list (blobs decode as [UInt8])")
        }

        func superDecoder() throws -> any Decoder { SQLiteRowDecoder(row: row) }
        func superDecoder(forKey key: Key) throws -> any Decoder { try value(key) }
    }
}

/// Decodes one column's value: numbers, text, blobs as `[UInt8]`, NULL as nil, and any
/// type that decodes from one of those (a `RawRepresentable` enum, for instance).
struct SQLiteValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: SQLiteValue
    let column: String
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw mismatch("a type with properties")
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw mismatch("a list") }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .null }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value {
        case .integer(0): false
        case .integer(1): true
        default: throw mismatch("Bool (0 or 1)")
        }
    }

    func decode(_ type: String.Type) throws -> String {
        guard let text = value.text else { throw mismatch("String") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let number = value.real else { throw mismatch("Double") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float { Float(try decode(Double.self)) }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == [UInt8].self {
            guard case .blob(let bytes) = value else { throw mismatch("[UInt8] (a blob)") }
            return bytes as! T
        }
        if let integer = T.self as? any FixedWidthInteger.Type {
            return try decodeInteger(integer) as! T
        }
        do {
            return try T(from: self)
        } catch let error as SQLiteRowDecoder.Mismatch {
            throw error
        } catch {
            throw mismatch("\(T.self)")  // an enum's init(from:) refusing the raw value
        }
    }

    private func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard let number = value.integer, let fitted = I(exactly: number) else { throw mismatch("\(I.self)") }
        return fitted
    }

    private func mismatch(_ expected: String) -> SQLiteRowDecoder.Mismatch {
        let found =
            switch value {
            case .null: "NULL"
            case .integer(let number): "the integer \(number)"
            case .real(let number): "the real \(number)"
            case .text(let text): "the text “\(text.prefix(40))”"
            case .blob(let bytes): "a blob of \(bytes.count) bytes"
            }
        return SQLiteRowDecoder.Mismatch(description: "column '\(column)': expected \(expected), found \(found)")
    }
}
