// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// Decodes a form's fields (url-encoded or multipart) into a `Decodable` type, as a
/// browser sends them: flat names, a repeated name for an array, text that is parsed for
/// numbers and booleans. A checkbox that is not ticked is not sent, so a missing `Bool` is
/// `false`; a missing or empty optional is nil. A type decoded from one value (a `String`
/// or `Int` enum for radio buttons and selects) is read from the field's text. Every field
/// that does not decode is recorded and decoding goes on, so one 422 names them all
/// (`RequestDecodingError`). Nested types are not forms: they are refused naming the field.
///
/// ```swift
/// struct NewItem: Decodable { var item: String; var count: Int; var urgent: Bool }
/// let item = try FormDecoder().decode(NewItem.self, from: form.fields)
/// ```
public struct FormDecoder: Sendable {
    public init() {}

    /// `type` from `fields`; a `RequestDecodingError` naming every field at fault.
    public func decode<Value: Decodable>(_ type: Value.Type, from fields: [(name: String, value: String)])
        throws(RequestDecodingError) -> Value
    {
        let reader = FormReader(fields: fields)
        let value: Value
        do {
            value = try Value(from: reader)
        } catch is FormReader.Abandoned {
            throw RequestDecodingError(reader.errors)
        } catch {
            reader.errors.append(FieldError("", "The form cannot be read as this kind of data: \(error)."))
            throw RequestDecodingError(reader.errors)
        }
        if !reader.errors.isEmpty { throw RequestDecodingError(reader.errors) }
        return value
    }
}

/// The decoder behind `FormDecoder`: one per decode, used by one thread.
final class FormReader: Decoder {
    /// Decoding stopped at a field whose error is recorded: no stand-in value exists.
    struct Abandoned: Error {}

    let fields: [(name: String, value: String)]
    var errors: [FieldError] = []
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] = [:]

    init(fields: [(name: String, value: String)]) {
        self.fields = fields
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FormFields<Key>(reader: self))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [String].self, .init(codingPath: codingPath, debugDescription: "A form is a set of named fields."))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: codingPath, debugDescription: "A form is a set of named fields."))
    }

    func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// Parses `text` as `type`, recording a field error (and giving a stand-in) when it is not one.
    func parse<Value>(_ text: String, as type: Value.Type, field: String) -> Value? {
        let parsed: Any?
        switch type {
        case is String.Type: parsed = text
        case let scalar as any FormScalar.Type: parsed = scalar.init(formText: text.trimmingASCIISpacesString)
        default: parsed = nil
        }
        guard let value = parsed as? Value else {
            errors.append(FieldError(field, Self.expectation(type, field: field, text: text)))
            return nil
        }
        return value
    }

    static func bool(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "on", "true", "1", "yes": true
        case "off", "false", "0", "no", "": false
        default: nil
        }
    }

    static func expectation<Value>(_ type: Value.Type, field: String, text: String) -> String {
        let quoted = String(text.prefix(40))
        let kind = (type as? any FormScalar.Type)?.expected ?? "a whole number"
        return "“\(field)” must be \(kind), not “\(quoted)”."
    }

    /// A value of `type` that stands in for one that did not decode (decoding goes on to
    /// find the other fields at fault; the result is never used).
    static func standIn<Value>(_ type: Value.Type) -> Value? {
        if type is String.Type { return "" as? Value }
        return (type as? any FormScalar.Type)?.standIn as? Value
    }
}

/// A value one form field's text is parsed into: a number or a checkbox's `Bool`.
protocol FormScalar {
    /// The value `text` (trimmed) reads as, nil when it is not one.
    init?(formText text: String)
    /// Any value of the type, for a field that did not decode.
    static var standIn: Self { get }
    /// What the field must be, for its error ("a whole number from 0 to 255").
    static var expected: String { get }
}

extension FormScalar where Self: FixedWidthInteger {
    init?(formText text: String) { self.init(text, radix: 10) }
    static var standIn: Self { 0 }
    static var expected: String {
        bitWidth < 64 ? "a whole number from \(Self.min) to \(Self.max)" : "a whole number"
    }
}

extension FormScalar where Self: BinaryFloatingPoint & LosslessStringConvertible {
    init?(formText text: String) {
        guard let value = Self(text), value.isFinite else { return nil }
        self = value
    }
    static var standIn: Self { 0 }
    static var expected: String { "a number" }
}

extension Int: FormScalar {}
extension Int8: FormScalar {}
extension Int16: FormScalar {}
extension Int32: FormScalar {}
extension Int64: FormScalar {}
extension UInt: FormScalar {}
extension UInt8: FormScalar {}
extension UInt16: FormScalar {}
extension UInt32: FormScalar {}
extension UInt64: FormScalar {}
extension Double: FormScalar {}
extension Float: FormScalar {}

extension Bool: FormScalar {
    init?(formText text: String) {
        guard let value = FormReader.bool(text) else { return nil }
        self = value
    }
    static var standIn: Bool { false }
    static var expected: String { "on or off" }
}

/// The keyed container over a form's fields.
struct FormFields<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let reader: FormReader
    var codingPath: [any CodingKey] { reader.codingPath }
    var allKeys: [Key] { Set(reader.fields.map(\.name)).compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { !reader.values(key.stringValue).isEmpty }

    func decodeNil(forKey key: Key) -> Bool {
        let values = reader.values(key.stringValue)
        return values.isEmpty || values.allSatisfy { $0.trimmingASCIISpacesString.isEmpty }
    }

    func decode<Value: Decodable>(_ type: Value.Type, forKey key: Key) throws -> Value {
        let name = key.stringValue
        let values = reader.values(name)
        if Value.self == Bool.self, values.isEmpty { return false as! Value }
        if let element = Value.self as? any FormArray.Type {
            return try element.decode(values, reader: reader, field: name) as! Value
        }
        guard let text = values.first else {
            reader.errors.append(FieldError(name, "“\(name)” is missing."))
            return try standIn(type, name)
        }
        if FormReader.standIn(type) == nil {
            // A type decoded from one value (an enum of choices): from this field's text.
            let recorded = reader.errors.count
            do {
                return try Value(from: FormFieldDecoder(reader: reader, field: name, text: text))
            } catch {
                if reader.errors.count == recorded {
                    reader.errors.append(FieldError(name, "“\(name)” cannot be “\(text.prefix(40))”."))
                }
                throw FormReader.Abandoned()
            }
        }
        if Value.self == String.self, text.isEmpty {
            // Required text left empty: as missing (an optional one is nil, see `decodeNil`).
            reader.errors.append(FieldError(name, "“\(name)” is missing."))
        }
        if let parsed = reader.parse(text, as: type, field: name) { return parsed }
        return try standIn(type, name)
    }

    /// A stand-in for a field whose error is recorded, or the end of decoding when its
    /// type has none.
    private func standIn<Value>(_ type: Value.Type, _ name: String) throws -> Value {
        guard let value = FormReader.standIn(type) else { throw FormReader.Abandoned() }
        return value
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        throw unsupported(key)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw unsupported(key) }
    func superDecoder() throws -> any Decoder { reader }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw unsupported(key) }

    private func unsupported(_ key: Key) -> DecodingError {
        .typeMismatch(String.self, .init(codingPath: codingPath + [key], debugDescription: "not a form field"))
    }
}

/// An array a form sends as one name repeated (`tag=a&tag=b`).
protocol FormArray {
    static func decode(_ values: [String], reader: FormReader, field: String) throws -> Self
}

extension Array: FormArray where Element: Decodable {
    static func decode(_ values: [String], reader: FormReader, field: String) throws -> [Element] {
        guard FormReader.standIn(Element.self) != nil else {
            throw DecodingError.typeMismatch(
                Element.self, .init(codingPath: [FormKey(field)], debugDescription: "not a form field"))
        }
        return values.compactMap { reader.parse($0, as: Element.self, field: field) }
    }
}

/// A coding key for a field name.
struct FormKey: CodingKey {
    let stringValue: String
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

extension String {
    /// The text without ASCII spaces and tabs at its ends.
    var trimmingASCIISpacesString: String {
        var text = Substring(self)
        while let first = text.first, first == " " || first == "\t" { text.removeFirst() }
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        return String(text)
    }
}
