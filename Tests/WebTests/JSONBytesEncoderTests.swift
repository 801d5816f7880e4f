// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Testing

@testable import TabServerWeb

/// The JSON routes' encoder writes what `JSONEncoder` writes with sorted keys and
/// unescaped slashes, byte for byte, for every shape a `Codable` value takes.
@Suite("JSON routes' encoder")
struct JSONBytesEncoderTests {
    struct Item: Codable {
        var index: Int
        var name: String
        var note: String?
        var tags: [String]
        var price: Double
        var weight: Float
        var done: Bool
    }

    enum Kind: Codable {
        case plain
        case measured(grams: Int, exact: Bool)
    }

    class Base: Encodable {
        var id = 7
    }

    final class Derived: Base {
        var extra = "x"
        enum Keys: String, CodingKey { case extra }
        override func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try super.encode(to: container.superEncoder())
            try container.encode(extra, forKey: .extra)
        }
    }

    struct Everything: Encodable {
        var items: [Item]
        var byName: [String: Int]
        var byNumber: [Int: String]
        var nested: [[Int?]]
        var kinds: [Kind]
        var data: Data
        var url: URL
        var date: Date
        var decimal: Decimal
        var extremes: [Int64]
        var unsigned: UInt64
        var empty: [String: String]
        var derived: Derived
    }

    static func foundation<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    static func ours<Value: Encodable>(_ value: Value) throws -> String {
        String(decoding: try JSONBytesEncoder.encode(value), as: UTF8.self)
    }

    @Test("objects, arrays, optionals, dictionaries, enums, Foundation's types and a superclass: the same bytes")
    func sameBytes() throws {
        let value = Everything(
            items: [
                Item(index: 0, name: "Milk", note: nil, tags: [], price: 1.0, weight: 0.5, done: false),
                Item(
                    index: 1, name: "\"Bread\" \\ a/b\n\t\r\u{8}\u{c}\u{1}é😀", note: "x", tags: ["a", "b"],
                    price: 2.25, weight: 3, done: true),
            ],
            byName: ["b": 2, "a": 1, "B": 3, "é": 4], byNumber: [10: "ten", 2: "two"], nested: [[1, nil], [], [3]],
            kinds: [.plain, .measured(grams: 250, exact: true)], data: Data([0, 1, 2, 250, 255]),
            url: URL(string: "https://shop.local/tabs/list?x=1")!, date: Date(timeIntervalSinceReferenceDate: 12.5),
            decimal: Decimal(string: "12.345")!, extremes: [.min, .max, 0, -1], unsigned: .max, empty: [:],
            derived: Derived())
        #expect(try Self.ours(value) == Self.foundation(value))
        for single in [try Self.ours("a/b"), try Self.ours(3), try Self.ours(1.5), try Self.ours([Int]())] {
            #expect(!single.isEmpty)
        }
        #expect(try Self.ours("a/b") == Self.foundation("a/b"))
        #expect(try Self.ours(1e300) == Self.foundation(1e300))
        #expect(try Self.ours(-0.125) == Self.foundation(-0.125))
        #expect(try Self.ours(Optional<Int>.none) == Self.foundation(Optional<Int>.none))
    }

    @Test("a number JSON cannot hold is refused, as JSONEncoder refuses it")
    func nonFinite() {
        #expect(throws: EncodingError.self) { try Self.ours([Double.nan]) }
        #expect(throws: EncodingError.self) { try Self.ours(["x": Double.infinity]) }
        #expect(throws: EncodingError.self) { try Self.foundation([Double.nan]) }
    }

    /// The path an encoding error names, as keys' strings and indices.
    static func errorPath(_ encode: () throws -> Void) -> [String]? {
        do {
            try encode()
        } catch let EncodingError.invalidValue(_, context) {
            return context.codingPath.map { $0.intValue.map { "#\($0)" } ?? $0.stringValue }
        } catch {
            return nil
        }
        return nil
    }

    @Test("the refusal names the number's place as JSONEncoder does, however deep it is")
    func nonFinitePaths() {
        var item = Item(index: 1, name: "a", note: nil, tags: [], price: 1, weight: 1, done: false)
        item.price = .infinity
        let values: [(String, any Encodable)] = [
            ("array", [1.0, 2.0, .nan]),
            ("object in an array", [item]),
            ("array in an object", ["outer": [["inner": [0.5, -.infinity]]]]),
            ("float", [Float.nan]),
        ]
        for (name, value) in values {
            let ours = Self.errorPath { _ = try JSONBytesEncoder.encode(value) }
            let foundation = Self.errorPath { _ = try JSONEncoder().encode(value) }
            #expect(ours != nil, "\(name)")
            #expect(ours == foundation, "\(name)")
        }
    }

    /// Keys declared out of order.
    struct Unsorted: Codable {
        var zebra = 1
        var apple = "a"
        var mango: [Int] = [3, 1]
        var kiwi: Unsorted2? = Unsorted2()
    }

    struct Unsorted2: Codable {
        var y = true
        var b: Double = 0.5
    }

    /// Writes one key twice: the last value is the one kept.
    struct Repeated: Encodable {
        enum Keys: String, CodingKey { case a, b }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .b)
            try container.encode(2, forKey: .a)
            try container.encode(3, forKey: .b)
        }
    }

    /// Writes into a nested container after its parent moved on.
    struct LateNested: Encodable {
        enum Keys: String, CodingKey { case inner, b, x }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .inner)
            try container.encode(1, forKey: .b)
            try inner.encode(2, forKey: .x)
        }
    }

    /// Asks for its container twice, with a nested one between.
    struct TwoAsks: Encodable {
        enum Keys: String, CodingKey { case list, n }
        func encode(to encoder: any Encoder) throws {
            var first = encoder.container(keyedBy: Keys.self)
            var list = first.nestedUnkeyedContainer(forKey: .list)
            try list.encode("x")
            var second = encoder.container(keyedBy: Keys.self)
            try second.encode(4, forKey: .n)
        }
    }

    /// Reads its coding path.
    struct PathReader: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(encoder.codingPath.count)
        }
    }

    @Test("what synthesized conformances write takes the fast path: the same bytes, keys put in order")
    func fastPath() throws {
        let values: [(String, any Encodable)] = [
            ("items", [Item(index: 0, name: "Milk", note: nil, tags: ["a"], price: 1.5, weight: 2, done: true)]),
            ("unsorted keys, nested", [Unsorted(), Unsorted(kiwi: nil)]),
            ("dictionaries", ["b": [2: "two", 10: "ten"], "a": [:], "é": [1: "x"]]),
            ("enums", [Kind.plain, .measured(grams: 3, exact: false)]),
            ("Foundation's types", [Data([1, 2]), Data()]),
            ("a date and a URL", ["when": Date(timeIntervalSinceReferenceDate: -1.25)]),
            ("integers at their limits", [Int64.min, .max, 0]),
            ("a key twice", [Repeated()]),
            ("a container asked for twice", TwoAsks()),
            ("single values", ["a/b\u{1}", "é"]),
            ("keys that need escapes", [["a\"": 1, "a#": 2, "a": 3, "b\\c": 4, "\u{1}": 5, "é\n": 6, "a\"b": 7]]),
            ("nested arrays", [[[Int?]]]([[[1, nil]], [], [[]]])),
        ]
        for (name, value) in values {
            let stream = JSONStreamEncoder.encode(value).map { String(decoding: $0, as: UTF8.self) }
            #expect(stream != nil, "\(name) took the tree")
            #expect(try stream == Self.foundation(value), "\(name)")
        }
    }

    @Test("an encoder used again after a refused value or a thrown error writes only the new value")
    func usedAgain() throws {
        let refused: [Double] = [1.0, .nan]
        let item = [Item(index: 1, name: "Bread", note: "x", tags: [], price: 2, weight: 0.5, done: false)]
        // Larger than the room an encoder keeps: its buffer and stacks grow, then shrink.
        let large = (0..<3_000).map { ["key\($0 % 7)": String(repeating: "é\"", count: $0 % 50)] }
        let wide = Dictionary(uniqueKeysWithValues: (0..<3_000).map { ("k\($0)", [$0]) })
        for _ in 0..<3 {
            #expect(JSONStreamEncoder.encode(refused) == nil)
            let bytes = JSONStreamEncoder.encode(large).map { String(decoding: $0, as: UTF8.self) }
            #expect(try bytes == Self.foundation(large))
            let wideBytes = JSONStreamEncoder.encode(wide).map { String(decoding: $0, as: UTF8.self) }
            #expect(try wideBytes == Self.foundation(wide))
            let stream = JSONStreamEncoder.encode(item).map { String(decoding: $0, as: UTF8.self) }
            #expect(try stream == Self.foundation(item))
        }
    }

    @Test("what the fast path does not take goes to the tree, with the same bytes")
    func treePath() throws {
        let values: [(String, any Encodable)] = [
            ("a nested container written late", LateNested()),
            ("a super encoder", Derived()),
            ("a coding path read", [PathReader()]),
            ("a refused number", [1.0, .nan]),
        ]
        for (name, value) in values {
            #expect(JSONStreamEncoder.encode(value) == nil, "\(name) took the fast path")
        }
        for (name, value) in values.dropLast() {
            #expect(try Self.ours(value) == Self.foundation(value), "\(name)")
        }
    }
}
