// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import Testing

@testable import TabServerJSON

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

    /// Writes its members in the order given, one key twice: the last value is the one kept.
    struct Repeated: Encodable {
        enum Keys: String, CodingKey { case a, b }
        /// Out of order by default; `[.a, .b, .b]` writes the second `b` where it is in order.
        var keys: [Keys] = [.b, .a, .b]
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            for (value, key) in keys.enumerated() { try container.encode(value + 1, forKey: key) }
        }
    }

    /// Keys `String` holds equal (canonically equivalent) whose bytes differ.
    struct CanonicalKeys: Encodable {
        struct Key: CodingKey {
            let stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(1, forKey: Key(stringValue: "\u{E9}"))
            try container.encode(2, forKey: Key(stringValue: "e\u{301}"))
            try container.encode(3, forKey: Key(stringValue: "K"))
            try container.encode(4, forKey: Key(stringValue: "\u{212A}"))
        }
    }

    /// Encodes JSON of its own while it is being encoded.
    struct Reentrant: Encodable {
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(String(decoding: try JSONBytesEncoder.encode(["x": [1, 2]]), as: UTF8.self))
        }
    }

    /// Arrays inside arrays, `depth` deep.
    struct Deep: Encodable {
        let depth: Int
        func encode(to encoder: any Encoder) throws {
            var container = encoder.unkeyedContainer()
            if depth > 0 { try container.encode(Deep(depth: depth - 1)) }
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
            ("a key twice, in order", [Repeated(keys: [.a, .b, .b])]),
            ("an inner object that drops a key, outer keys out of order", ["z": Repeated(), "a": Repeated()]),
            ("an empty key", ["": 1, "a": 2]),
            ("a value that encodes JSON itself", [Reentrant()]),
            ("keys that need escapes", [["a\"": 1, "a#": 2, "a": 3, "b\\c": 4, "\u{1}": 5, "é\n": 6, "a\"b": 7]]),
            ("nested arrays", [[[Int?]]]([[[1, nil]], [], [[]]])),
        ]
        for (name, value) in values {
            let stream = JSONStreamEncoder.encode(value).map { String(decoding: $0, as: UTF8.self) }
            #expect(stream != nil, "\(name) took the tree")
            #expect(try stream == Self.foundation(value), "\(name)")
        }
        // The inner encoding is ours in both runs above: its bytes checked on their own.
        #expect(try Self.ours([Reentrant()]) == #"["{\"x\":[1,2]}"]"#)
    }

    /// Throws from inside a nested object, leaving containers open.
    struct ThrowsInside: Encodable {
        enum Keys: String, CodingKey { case a, b }
        struct Thrown: Error {}
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .b)
            try nested.encode(1, forKey: .a)
            throw Thrown()
        }
    }

    /// Keeps the container of its first encoding, which `Codable` forbids.
    final class Keeper: Encodable {
        enum Keys: String, CodingKey { case a, b }
        var kept: KeyedEncodingContainer<Keys>?
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            if kept == nil { kept = container }
        }
    }

    @Test("one scratch lent to value after value: each writes only its own bytes, whatever the one before did")
    func usedAgain() throws {
        let scratch = JSONScratch()
        let keeper = Keeper()
        // Larger than the room kept between values: the buffer and stacks grow, and shrink
        // when the scratch is given back.
        let large = (0..<3_000).map { ["key\($0 % 7)": String(repeating: "é\"", count: $0 % 50)] }
        let wide = Dictionary(uniqueKeysWithValues: (0..<3_000).map { ("k\($0)", [$0]) })
        let values: [(String, any Encodable, taken: Bool)] = [
            ("a refused number", [1.0, .nan], false),
            ("an item", [Item(index: 1, name: "Bread", note: "x", tags: [], price: 2, weight: 0.5, done: false)], true),
            ("a throw inside a nested object", ThrowsInside(), false),
            ("a single value", "text", true),
            ("an array after a single value", [1], true),
            ("a value that keeps its container", keeper, true),
            ("many items", large, true),
            ("many members", wide, true),
            ("nesting deeper than the stacks keep", Deep(depth: 300), true),
            ("an object after all that", Unsorted(), true),
        ]
        for _ in 0..<2 {
            for (name, value, taken) in values {
                // A container kept from an earlier value writes, as a value that broke the
                // rules would, between two others.
                try keeper.kept?.encode(2, forKey: .b)
                let bytes = JSONStreamEncoder.encode(value, with: scratch).map { String(decoding: $0, as: UTF8.self) }
                if taken {
                    #expect(try bytes == Self.foundation(value), "\(name)")
                } else {
                    #expect(bytes == nil, "\(name) took the fast path")
                }
                scratch.shrink()
            }
        }
    }

    @Test("encodings on many threads at once, each with a scratch of the shared ones, write the same bytes")
    func concurrent() async throws {
        let value = (0..<20).map {
            Item(index: $0, name: "n\($0)", note: nil, tags: ["t"], price: 1, weight: 1, done: true)
        }
        let expected = try Self.foundation(value)
        let allSame = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<300).allSatisfy { _ in
                        JSONStreamEncoder.encode(value).map { String(decoding: $0, as: UTF8.self) } == expected
                    }
                }
            }
            return await group.allSatisfy { $0 }
        }
        #expect(allSame)
    }

    @Test("what the fast path does not take goes to the tree, with the same bytes")
    func treePath() throws {
        let values: [(String, any Encodable)] = [
            ("a nested container written late", LateNested()),
            ("a super encoder", Derived()),
            ("a coding path read", [PathReader()]),
            ("keys equal as strings, not in bytes", CanonicalKeys()),
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
