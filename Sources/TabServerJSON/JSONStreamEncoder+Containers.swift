// SPDX-License-Identifier: Apache-2.0

extension JSONStreamEncoder {
    /// The `Encoder` a value encodes itself to.
    struct Writer: Encoder, Pathless {
        let encoder: JSONStreamEncoder
        let token: Int

        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            let index = encoder.open(token: token, isObject: true) ?? 0
            return KeyedEncodingContainer(Keyed<Key>(encoder: encoder, token: token, index: index))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            Unkeyed(encoder: encoder, token: token, index: encoder.open(token: token, isObject: false) ?? 0)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(encoder: encoder, token: token, depth: encoder.openFrames)
        }
    }

    /// An object's container: `index` and `token` name its frame.
    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol, Pathless {
        let encoder: JSONStreamEncoder
        let token: Int
        let index: Int

        /// Starts the member `key`; false when nothing may be written.
        private func start(_ key: Key) -> Bool { encoder.member(key.stringValue, of: index, token: token) }

        mutating func encodeNil(forKey key: Key) throws {
            if start(key) { encoder.out.append(contentsOf: "null".utf8) }
        }
        mutating func encode(_ value: Bool, forKey key: Key) throws {
            if start(key) { encoder.out.append(contentsOf: (value ? "true" : "false").utf8) }
        }
        mutating func encode(_ value: String, forKey key: Key) throws {
            if start(key) { JSONBytesEncoder.writeString(value, to: &encoder.out) }
        }
        mutating func encode(_ value: Double, forKey key: Key) throws { if start(key) { encoder.writeNumber(value) } }
        mutating func encode(_ value: Float, forKey key: Key) throws { if start(key) { encoder.writeNumber(value) } }
        mutating func encode(_ value: Int, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: Int8, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: Int16, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: Int32, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: Int64, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: UInt, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { if start(key) { encoder.writeInteger(value) } }
        mutating func encode<Value: Encodable>(_ value: Value, forKey key: Key) throws {
            if start(key) { try encoder.write(value, token: encoder.newToken()) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
            -> KeyedEncodingContainer<NestedKey>
        {
            let token = encoder.newToken()
            let nested = start(key) ? encoder.open(token: token, isObject: true) ?? 0 : 0
            return KeyedEncodingContainer(Keyed<NestedKey>(encoder: encoder, token: token, index: nested))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let token = encoder.newToken()
            let nested = start(key) ? encoder.open(token: token, isObject: false) ?? 0 : 0
            return Unkeyed(encoder: encoder, token: token, index: nested)
        }

        mutating func superEncoder() -> any Encoder {
            encoder.spoil()
            return Writer(encoder: encoder, token: -1)
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            encoder.spoil()
            return Writer(encoder: encoder, token: -1)
        }
    }

    /// An array's container: `index` and `token` name its frame.
    struct Unkeyed: UnkeyedEncodingContainer, ValueSlot {
        let encoder: JSONStreamEncoder
        let token: Int
        let index: Int

        var count: Int { encoder.count(of: index) }

        /// Starts the next item; false when nothing may be written.
        func start() -> Bool { encoder.item(of: index, token: token) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type)
            -> KeyedEncodingContainer<NestedKey>
        {
            let token = encoder.newToken()
            let nested = start() ? encoder.open(token: token, isObject: true) ?? 0 : 0
            return KeyedEncodingContainer(Keyed<NestedKey>(encoder: encoder, token: token, index: nested))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let token = encoder.newToken()
            let nested = start() ? encoder.open(token: token, isObject: false) ?? 0 : 0
            return Unkeyed(encoder: encoder, token: token, index: nested)
        }

        mutating func superEncoder() -> any Encoder {
            encoder.spoil()
            return Writer(encoder: encoder, token: -1)
        }
    }

    /// The single value of the value `token`, written where it goes.
    struct Single: SingleValueEncodingContainer, ValueSlot {
        let encoder: JSONStreamEncoder
        let token: Int
        /// Open frames when the container was made: none inside the value may be open.
        let depth: Int

        /// Whether the value may be written now; false when nothing may be written.
        func start() -> Bool { encoder.single(token: token, depth: depth) }
    }

    /// What an array's container and a single value's share: each writes a value where its
    /// next one goes, once `start()` allows it (it has written the comma, or checked that the
    /// value is the only one).
    protocol ValueSlot: Pathless {
        func start() -> Bool
    }

    /// An encoder or container of this path: it keeps no coding path, and reading one
    /// spoils the pass (the tree keeps it).
    protocol Pathless {
        var encoder: JSONStreamEncoder { get }
    }
}

extension JSONStreamEncoder.Pathless {
    var codingPath: [any CodingKey] {
        encoder.spoil()
        return []
    }
}

extension JSONStreamEncoder.ValueSlot {
    mutating func encodeNil() throws { if start() { encoder.out.append(contentsOf: "null".utf8) } }
    mutating func encode(_ value: Bool) throws {
        if start() { encoder.out.append(contentsOf: (value ? "true" : "false").utf8) }
    }
    mutating func encode(_ value: String) throws {
        if start() { JSONBytesEncoder.writeString(value, to: &encoder.out) }
    }
    mutating func encode(_ value: Double) throws { if start() { encoder.writeNumber(value) } }
    mutating func encode(_ value: Float) throws { if start() { encoder.writeNumber(value) } }
    mutating func encode(_ value: Int) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: Int8) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: Int16) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: Int32) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: Int64) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: UInt) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: UInt8) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: UInt16) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: UInt32) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode(_ value: UInt64) throws { if start() { encoder.writeInteger(value) } }
    mutating func encode<Value: Encodable>(_ value: Value) throws {
        if start() { try encoder.write(value, token: encoder.newToken()) }
    }
}
