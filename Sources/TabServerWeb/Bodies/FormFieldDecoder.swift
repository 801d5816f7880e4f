// SPDX-License-Identifier: Apache-2.0
/// One form field's text as a single value, for a type decoded from one (a `String` or
/// `Int` enum: `enum Sort: String, Decodable`). Numbers and booleans are parsed as
/// `FormDecoder` parses fields; a text that does not fit records the field's error.
struct FormFieldDecoder: Decoder, SingleValueDecodingContainer {
    let reader: FormReader
    let field: String
    let text: String
    var codingPath: [any CodingKey] { [FormKey(field)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw notOneValue()
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw notOneValue() }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }
    func decode(_ type: String.Type) throws -> String { text }
    func decode(_ type: Bool.Type) throws -> Bool { try parsed(type) }
    func decode(_ type: Double.Type) throws -> Double { try parsed(type) }
    func decode(_ type: Float.Type) throws -> Float { try parsed(type) }
    func decode(_ type: Int.Type) throws -> Int { try parsed(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try parsed(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try parsed(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try parsed(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try parsed(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try parsed(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try parsed(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try parsed(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try parsed(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try parsed(type) }
    func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        if Value.self == String.self { return text as! Value }
        if FormReader.standIn(type) != nil { return try parsed(type) }
        throw notOneValue()
    }

    private func parsed<Value>(_ type: Value.Type) throws -> Value {
        guard let value = reader.parse(text, as: type, field: field) else { throw FormReader.Abandoned() }
        return value
    }

    private func notOneValue() -> DecodingError {
        reader.errors.append(FieldError(field, "“\(field)” cannot be sent in a form."))
        return .typeMismatch(String.self, .init(codingPath: codingPath, debugDescription: "not a form field"))
    }
}
