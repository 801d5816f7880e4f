// SPDX-License-Identifier: Apache-2.0

extension JSONBytesEncoder {
    /// The `Encoder` a value encodes itself to: it fills one slot.
    struct Writer: Encoder {
        let slot: Slot
        var codingPath: [any CodingKey] { slot.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let box: ObjectBox
            if case .object(let existing) = slot.node {
                box = existing
            } else {
                box = ObjectBox()
                slot.node = .object(box)
            }
            return KeyedEncodingContainer(Keyed<Key>(box: box, owner: slot))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let box: ArrayBox
            if case .array(let existing) = slot.node {
                box = existing
            } else {
                box = ArrayBox()
                slot.node = .array(box)
            }
            return Unkeyed(box: box, owner: slot)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(slot: slot, then: nil)
        }
    }

    // A container reads its path from the slot of the value it is (`owner`), joined only
    // when asked: joining it for every object made two arrays an object, though a path is
    // read only by errors and by values that are containers themselves.

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: ObjectBox
        let owner: Slot
        var codingPath: [any CodingKey] { owner.codingPath }

        private func set(_ key: Key, _ node: Node) { box.set(key.stringValue, node) }

        mutating func encodeNil(forKey key: Key) throws { set(key, .null) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { set(key, .literal(value ? "true" : "false")) }
        mutating func encode(_ value: String, forKey key: Key) throws { set(key, .string(value)) }
        mutating func encode(_ value: Double, forKey key: Key) throws {
            set(key, try JSONBytesEncoder.number(value, codingPath: codingPath + [key]))
        }
        mutating func encode(_ value: Float, forKey key: Key) throws {
            set(key, try JSONBytesEncoder.number(value, codingPath: codingPath + [key]))
        }
        mutating func encode(_ value: Int, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { set(key, .literal(String(value))) }
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
            set(key, try JSONBytesEncoder.node(of: value, base: codingPath, last: key))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let nested = ObjectBox()
            set(key, .object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(box: nested, owner: Slot(base: codingPath, last: key)))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let nested = ArrayBox()
            set(key, .array(nested))
            return Unkeyed(box: nested, owner: Slot(base: codingPath, last: key))
        }

        mutating func superEncoder() -> any Encoder {
            MemberWriter(box: box, key: "super", base: codingPath, last: nil)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            MemberWriter(box: box, key: key.stringValue, base: codingPath, last: key)
        }
    }

    /// An encoder for one member whose value is encoded later (`superEncoder`): a slot of
    /// its own, put in place at once so what is encoded into it shows.
    struct MemberWriter: Encoder {
        let writer: Writer
        var codingPath: [any CodingKey] { writer.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        private let box: ObjectBox
        private let key: String

        /// Sets the member (null until something is encoded into it).
        init(box: ObjectBox, key: String, base: [any CodingKey], last: (any CodingKey)?) {
            writer = Writer(slot: Slot(base: base, last: last))
            box.set(key, .null)
            self.box = box
            self.key = key
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let container = writer.container(keyedBy: type)
            box.set(key, writer.slot.node)
            return container
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let container = writer.unkeyedContainer()
            box.set(key, writer.slot.node)
            return container
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            let (box, key) = (box, key)
            return Single(slot: writer.slot) { box.set(key, $0) }
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: ArrayBox
        let owner: Slot
        var codingPath: [any CodingKey] { owner.codingPath }
        var count: Int { box.items.count }

        private func append(_ node: Node) { box.items.append(node) }

        private var nextKey: IndexKey { IndexKey(count) }

        mutating func encodeNil() throws { append(.null) }
        mutating func encode(_ value: Bool) throws { append(.literal(value ? "true" : "false")) }
        mutating func encode(_ value: String) throws { append(.string(value)) }
        mutating func encode(_ value: Double) throws {
            append(try JSONBytesEncoder.number(value, codingPath: codingPath + [nextKey]))
        }
        mutating func encode(_ value: Float) throws {
            append(try JSONBytesEncoder.number(value, codingPath: codingPath + [nextKey]))
        }
        mutating func encode(_ value: Int) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int8) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int16) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int32) throws { append(.literal(String(value))) }
        mutating func encode(_ value: Int64) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt8) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt16) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt32) throws { append(.literal(String(value))) }
        mutating func encode(_ value: UInt64) throws { append(.literal(String(value))) }
        mutating func encode<Value: Encodable>(_ value: Value) throws {
            append(try JSONBytesEncoder.node(of: value, base: codingPath, last: nextKey))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let (path, key) = (codingPath, nextKey)
            let nested = ObjectBox()
            append(.object(nested))
            return KeyedEncodingContainer(Keyed<NestedKey>(box: nested, owner: Slot(base: path, last: key)))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let (path, key) = (codingPath, nextKey)
            let nested = ArrayBox()
            append(.array(nested))
            return Unkeyed(box: nested, owner: Slot(base: path, last: key))
        }

        mutating func superEncoder() -> any Encoder {
            let writer = Writer(slot: Slot(base: codingPath, last: nextKey))
            return ItemWriter(array: box, writer: writer)
        }
    }

    /// An encoder for one array item encoded later (`superEncoder`).
    struct ItemWriter: Encoder {
        let array: ArrayBox
        let index: Int
        let writer: Writer
        var codingPath: [any CodingKey] { writer.codingPath }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        /// Appends the item (null until something is encoded into it).
        init(array: ArrayBox, writer: Writer) {
            self.array = array
            index = array.items.count
            self.writer = writer
            array.items.append(.null)
        }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let container = writer.container(keyedBy: type)
            array.items[index] = writer.slot.node
            return container
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            let container = writer.unkeyedContainer()
            array.items[index] = writer.slot.node
            return container
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            let (array, index) = (array, index)
            return Single(slot: writer.slot) { array.items[index] = $0 }
        }
    }

    /// A single value written into a slot (and, for a super encoder's, passed on `then`).
    struct Single: SingleValueEncodingContainer {
        let slot: Slot
        let then: ((Node) -> Void)?
        var codingPath: [any CodingKey] { slot.codingPath }

        private func put(_ node: Node) {
            slot.node = node
            then?(node)
        }

        mutating func encodeNil() throws { put(.null) }
        mutating func encode(_ value: Bool) throws { put(.literal(value ? "true" : "false")) }
        mutating func encode(_ value: String) throws { put(.string(value)) }
        mutating func encode(_ value: Double) throws { put(try JSONBytesEncoder.number(value, codingPath: codingPath)) }
        mutating func encode(_ value: Float) throws { put(try JSONBytesEncoder.number(value, codingPath: codingPath)) }
        mutating func encode(_ value: Int) throws { put(.literal(String(value))) }
        mutating func encode(_ value: Int8) throws { put(.literal(String(value))) }
        mutating func encode(_ value: Int16) throws { put(.literal(String(value))) }
        mutating func encode(_ value: Int32) throws { put(.literal(String(value))) }
        mutating func encode(_ value: Int64) throws { put(.literal(String(value))) }
        mutating func encode(_ value: UInt) throws { put(.literal(String(value))) }
        mutating func encode(_ value: UInt8) throws { put(.literal(String(value))) }
        mutating func encode(_ value: UInt16) throws { put(.literal(String(value))) }
        mutating func encode(_ value: UInt32) throws { put(.literal(String(value))) }
        mutating func encode(_ value: UInt64) throws { put(.literal(String(value))) }
        mutating func encode<Value: Encodable>(_ value: Value) throws {
            put(try JSONBytesEncoder.node(of: value, base: slot.base, last: slot.last))
        }
    }

    /// An array item's place in a coding path.
    struct IndexKey: CodingKey {
        let intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(_ index: Int) { intValue = index }
        init?(stringValue: String) { nil }
        init?(intValue: Int) { self.intValue = intValue }
    }
}
