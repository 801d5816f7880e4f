// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// What is wrong with one field of a request: its name (a form field, a JSON path such
/// as `items.2.count`, a path parameter) and a message for the person.
///
/// ```swift
/// throw FieldError("item", "Write what to buy.")      // 422, the form shown again
/// ```
public struct FieldError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field's name.
    public var field: String
    /// What is wrong, in one sentence.
    public var message: String

    public init(_ field: String, _ message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field): \(message)" }
}

extension FieldError: HTTPResponseError {
    public var status: HTTPStatus { .unprocessableContent }
    public var fieldErrors: [FieldError] { [self] }
}
