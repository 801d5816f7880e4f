// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Finds the field a JSON body failed on when `JSONDecoder` cannot say: for a number that
/// does not fit its field (`3.5` or `1e40` for an `Int`, `300` for a `UInt8`) it reports
/// only that the data is "not valid JSON", with no path. The body is read again as a tree
/// (by `JSONDecoder`, so what it takes as JSON is unchanged), and the app's type decoded
/// from the tree by a decoder that keeps its path and checks each number against its
/// field's type. Only a body that already failed comes here.
enum JSONFieldLocator {
    /// The number that does not fit its field, as a `DecodingError` with its path; nil when
    /// the body is not JSON at all, or fails for another reason (an app's own
    /// `init(from:)`, a type this decoder reads otherwise than `JSONDecoder`): then the
    /// original error stands.
    static func fault<Value: Decodable>(decoding type: Value.Type, from body: [UInt8]) -> DecodingError? {
        guard let tree = try? JSONDecoder().decode(JSONTree.self, from: Data(body)) else { return nil }
        do {
            _ = try Value(from: TreeDecoder(tree, path: []))
            return nil
        } catch let error as DecodingError {
            guard case .dataCorrupted(let context) = error, context.underlyingError is NumberDoesNotFit else {
                return nil
            }
            return error
        } catch {
            return nil
        }
    }
}

/// Why `TreeDecoder` refused a number: it does not fit its field's type.
struct NumberDoesNotFit: Error {}

/// A JSON value as a tree; numbers keep the widest form they decode as.
enum JSONTree: Decodable {
    case null
    case bool(Bool)
    case integer(Int64)
    case unsigned(UInt64)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONTree] = [:]
            for key in object.allKeys { members[key.stringValue] = try object.decode(JSONTree.self, forKey: key) }
            self = .object(members)
        } else if var array = try? decoder.unkeyedContainer() {
            var items: [JSONTree] = []
            while !array.isAtEnd { items.append(try array.decode(JSONTree.self)) }
            self = .array(items)
        } else {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() {
                self = .null
            } else if let bool = try? value.decode(Bool.self) {
                self = .bool(bool)
            } else if let integer = try? value.decode(Int64.self) {
                self = .integer(integer)
            } else if let unsigned = try? value.decode(UInt64.self) {
                self = .unsigned(unsigned)
            } else if let number = try? value.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try value.decode(String.self))
            }
        }
    }
}

/// Any key of a JSON object (also an array index in a path).
struct AnyKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
    init(intValue: Int) { (stringValue, self.intValue) = (String(intValue), intValue) }
}

/// Decodes from a `JSONTree`, keeping the path, as `JSONDecoder` would but for the errors.
struct TreeDecoder: Decoder, SingleValueDecodingContainer {
    let tree: JSONTree
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(_ tree: JSONTree, path: [any CodingKey]) { (self.tree, codingPath) = (tree, path) }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = tree else { throw mismatch([String: JSONTree].self) }
        return KeyedDecodingContainer(TreeObject<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let items) = tree else { throw mismatch([JSONTree].self) }
        return TreeArray(items: items, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { if case .null = tree { true } else { false } }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let value) = tree else { throw mismatch(type) }
        return value
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let value) = tree else { throw mismatch(type) }
        return value
    }

    func decode(_ type: Double.Type) throws -> Double { try floating(type) }
    func decode(_ type: Float.Type) throws -> Float { try floating(type) }
    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value { try Value(from: self) }

    private func integer<Value: FixedWidthInteger>(_ type: Value.Type) throws -> Value {
        let fitted: Value? =
            switch tree {
            case .integer(let value): Value(exactly: value)
            case .unsigned(let value): Value(exactly: value)
            case .number(let value): Value(exactly: value)
            default: throw mismatch(type)
            }
        guard let fitted else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: codingPath, debugDescription: "The number does not fit in \(Value.self).",
                    underlyingError: NumberDoesNotFit()))
        }
        return fitted
    }

    private func floating<Value: BinaryFloatingPoint>(_ type: Value.Type) throws -> Value {
        switch tree {
        case .integer(let value): return Value(value)
        case .unsigned(let value): return Value(value)
        case .number(let value): return Value(value)
        default: throw mismatch(type)
        }
    }

    private func mismatch(_ type: Any.Type) -> DecodingError {
        .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "Expected \(type)."))
    }
}

/// A JSON object's members, for `TreeDecoder`.
private struct TreeObject<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONTree]
    let codingPath: [any CodingKey]
    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func decodeNil(forKey key: Key) throws -> Bool {
        if case .null = try member(key) { true } else { false }
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        try Value(from: TreeDecoder(try member(key), path: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try TreeDecoder(try member(key), path: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TreeDecoder(try member(key), path: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { TreeDecoder(.object(members), path: codingPath) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        TreeDecoder(members[key.stringValue] ?? .null, path: codingPath + [key])
    }

    private func member(_ key: Key) throws -> JSONTree {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No such member."))
        }
        return value
    }
}

/// A JSON array's items, for `TreeDecoder`.
private struct TreeArray: UnkeyedDecodingContainer {
    let items: [JSONTree]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    init(items: [JSONTree], codingPath: [any CodingKey]) { (self.items, self.codingPath) = (items, codingPath) }

    mutating func decodeNil() throws -> Bool {
        guard case .null = try item() else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        let value = try Value(from: TreeDecoder(try item(), path: codingPath + [AnyKey(intValue: currentIndex)]))
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let container = try TreeDecoder(try item(), path: codingPath + [AnyKey(intValue: currentIndex)])
            .container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try TreeDecoder(try item(), path: codingPath + [AnyKey(intValue: currentIndex)])
            .unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = TreeDecoder(try item(), path: codingPath + [AnyKey(intValue: currentIndex)])
        currentIndex += 1
        return decoder
    }

    private func item() throws -> JSONTree {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONTree.self, .init(codingPath: codingPath, debugDescription: "The array has no more items."))
        }
        return items[currentIndex]
    }
}
