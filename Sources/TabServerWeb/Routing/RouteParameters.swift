// SPDX-License-Identifier: Apache-2.0
/// The values a route pattern captured, by name: `{index}` in `/api/items/{index}`.
///
/// ```swift
/// let index = try context.parameters.require("index", as: Int.self)   // 400 naming it if not an Int
/// let slug = context.parameters["slug"]                               // the text, or nil
/// ```
public struct RouteParameters: Sendable {
    var values: [(name: String, value: String)] = []

    /// No parameters.
    public init() {}

    /// The captured value (a rest parameter may be "").
    public subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The captured text of `name`; a 400 naming it when the pattern has no such parameter.
    public func require(_ name: String) throws(HTTPError) -> String {
        guard let value = self[name] else {
            throw .badRequest("The path has no parameter '\(name)'.", field: name)
        }
        return value
    }

    /// The captured value of `name` as `type` (`Int`, `Double`, `Bool`, `UUID`, any
    /// `LosslessStringConvertible`): a 400 naming the parameter when it is not one.
    public func require<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) throws(HTTPError)
        -> Value
    {
        let text = try require(name)
        guard let value = Value(text) else {
            throw .badRequest(
                "The path parameter '\(name)' must be \(Self.describe(type)), not '\(HTTPError.quoted(text))'.",
                field: name)
        }
        return value
    }

    /// How a message names a type: "a whole number" for the integers.
    private static func describe<Value>(_ type: Value.Type) -> String {
        switch type {
        case is any FixedWidthInteger.Type: "a whole number"
        case is any BinaryFloatingPoint.Type: "a number"
        case is Bool.Type: "true or false"
        default: "a \(type)"
        }
    }
}
