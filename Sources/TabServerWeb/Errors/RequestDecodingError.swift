// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A request body that does not decode as the type asked for: 422 Unprocessable Content,
/// with what is wrong field by field (a form's every field at once; JSON's first). An
/// action's form is shown again with them; a JSON client gets them as problem+json.
public struct RequestDecodingError: HTTPResponseError, Hashable, CustomStringConvertible {
    /// Each field at fault.
    public var fieldErrors: [FieldError]

    public init(_ fieldErrors: [FieldError]) {
        self.fieldErrors = fieldErrors
    }

    public var status: HTTPStatus { .unprocessableContent }

    public var message: String {
        fieldErrors.count == 1
            ? fieldErrors[0].message : "\(fieldErrors.count) fields are not valid: see each one."
    }

    public var description: String { "422 " + fieldErrors.map(\.description).joined(separator: "; ") }
}
