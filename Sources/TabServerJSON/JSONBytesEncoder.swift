// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Encodes an `Encodable` value as JSON bytes the way `JSONEncoder` does with
/// `[.sortedKeys, .withoutEscapingSlashes]` and its default strategies (dates as their
/// own `Encodable` form, `Data` as base64, a `URL` as its absolute string, non-finite
/// numbers refused), for the answers of JSON routes.
///
/// Written here for the cost: `JSONEncoder` makes dynamic casts and generic lookups for
/// every value, a large share of a small JSON route's request. Most values take the fast
/// path, `JSONStreamEncoder`, which writes bytes as they come; the rest come here, where a
/// small tree is built (objects are sorted when written) and written once: every shape
/// `Codable` allows, with the coding path an error names. `JSONBytesEncoderTests` holds
/// both to `JSONEncoder`'s bytes.
package struct JSONBytesEncoder {
    /// The JSON of `value`.
    package static func encode<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        if let bytes = JSONStreamEncoder.encode(value) { return bytes }
        return try encodeWithTree(value)
    }

    /// The JSON of `value`, by the tree.
    static func encodeWithTree<Value: Encodable>(_ value: Value) throws -> [UInt8] {
        let root = try node(of: value, base: [], last: nil)
        var out: [UInt8] = []
        out.reserveCapacity(256)
        root.write(to: &out)
        return out
    }

    /// A value being built.
    enum Node {
        case null
        case literal(String)  // a number, true or false, written as it is
        case string(String)
        case array(ArrayBox)
        case object(ObjectBox)

        func write<Sink: JSONByteSink & ~Copyable>(to out: inout Sink) {
            switch self {
            case .null: out.append(contentsOf: "null".utf8)
            case .literal(let text): out.append(contentsOf: text.utf8)
            case .string(let text): JSONBytesEncoder.writeString(text, to: &out)
            case .array(let box):
                out.append(UInt8(ascii: "["))
                var first = true
                for item in box.items {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    item.write(to: &out)
                }
                out.append(UInt8(ascii: "]"))
            case .object(let box):
                out.append(UInt8(ascii: "{"))
                box.entries.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                var first = true
                for entry in box.entries {
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSONBytesEncoder.writeString(entry.key, to: &out)
                    out.append(UInt8(ascii: ":"))
                    entry.node.write(to: &out)
                }
                out.append(UInt8(ascii: "}"))
            }
        }
    }

    // The boxes' properties skip the runtime's exclusivity check: one encoding uses them,
    // on one thread, and a value's own `encode(to:)` runs before its node is stored.

    // Room for a few members from the start: growing from empty reallocated at the first
    // and the second member of every object.

    final class ArrayBox {
        @exclusivity(unchecked) var items: [Node]
        init() {
            items = []
            items.reserveCapacity(4)
        }
    }

    final class ObjectBox {
        @exclusivity(unchecked) var entries: [(key: String, node: Node)]
        init() {
            entries = []
            entries.reserveCapacity(4)
        }

        /// Sets `key`: a key encoded twice keeps its last value, as `JSONEncoder` does.
        func set(_ key: String, _ node: Node) {
            if let index = entries.firstIndex(where: { $0.key == key }) {
                entries[index].node = node
            } else {
                entries.append((key, node))
            }
        }
    }

    /// Where a value that encodes itself goes while it does: its containers are made here.
    ///
    /// The slot also holds the value's coding path, as its container's path and its own
    /// key, joined only when read: kept in the encoder and the containers, the path made
    /// them too large for an existential's inline buffer, and each `encode(to:)` then
    /// boxed its encoder on the heap.
    final class Slot {
        @exclusivity(unchecked) var node = Node.null
        let base: [any CodingKey]
        let last: (any CodingKey)?

        init(base: [any CodingKey], last: (any CodingKey)?) {
            self.base = base
            self.last = last
        }

        var codingPath: [any CodingKey] { last.map { base + [$0] } ?? base }
    }

    /// The node of `value`, at the coding path `base` + `last` (made only when asked for:
    /// most values never need it).
    static func node<Value: Encodable>(of value: Value, base: [any CodingKey], last: (any CodingKey)?) throws -> Node {
        if let special = special(value) { return special }
        let slot = Slot(base: base, last: last)
        try value.encode(to: Writer(slot: slot))
        return slot.node
    }

    /// `JSONEncoder`'s own forms for Foundation's types whose `Encodable` form differs.
    static func special<Value: Encodable>(_ value: Value) -> Node? {
        // Compared by type first: a cast for every value would cost what this type saves.
        if Value.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
        if Value.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
        if Value.self == Decimal.self, let decimal = value as? Decimal { return .literal(decimal.description) }
        return nil
    }

    static func number<Number: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Number, codingPath: @autoclosure () -> [any CodingKey]
    ) throws -> Node {
        guard value.isFinite else {
            throw EncodingError.invalidValue(
                value, EncodingError.Context(codingPath: codingPath(), debugDescription: "\(value) is not valid JSON."))
        }
        var text = value.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        return .literal(text)
    }

    /// `text` as a JSON string, escaped as `JSONString` escapes.
    static func writeString<Sink: JSONByteSink & ~Copyable>(_ text: String, to out: inout Sink) {
        var text = text
        text.withUTF8 { bytes in
            out.append(UInt8(ascii: "\""))
            // Runs of bytes that need no escape are copied at once; most strings are one run.
            var start = 0
            for index in 0..<bytes.count where JSONString.needsEscape(bytes[index]) {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
                start = index + 1
                JSONString.escape(bytes[index]) { out.append($0) }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            out.append(UInt8(ascii: "\""))
        }
    }
}
