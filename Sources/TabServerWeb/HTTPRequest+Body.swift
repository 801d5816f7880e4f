// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Request bodies, decoded in the web layer: the engine only frames them (and bounds
/// them with `--max-body`). Form posts are decoded once by the app before its routes run
/// (`formFields`); an action decodes other bodies itself.
///
/// ```swift
/// struct NewNote: Decodable { var title: String }
/// let note = try request.decodeJSON(NewNote.self)  // 422 naming a missing field, 415 if not JSON
/// ```
extension HTTPRequest {
    /// The body's media type (`Content-Type` taken apart), or nil when it names none.
    public var mediaType: MediaType? {
        headers["content-type"].flatMap(MediaType.init)
    }

    /// Whether the body is a form post (url-encoded or multipart), or there is no body.
    public var hasFormBody: Bool {
        guard !body.isEmpty else { return true }
        if isPlainURLEncodedForm { return true }
        let essence = mediaType?.essence
        return essence == MediaType.urlEncodedForm || essence == MediaType.multipartForm
    }

    /// The form the body holds: no fields for an empty body, 415 for a body of another
    /// type, 400 naming the field for a malformed one, 413 past `limits`.
    public func decodeForm(limits: BodyLimits = BodyLimits()) throws(HTTPError) -> FormData {
        guard !body.isEmpty else { return FormData() }
        if isPlainURLEncodedForm { return FormData(fields: try URLEncodedForm.decode(body, limits: limits)) }
        guard let type = mediaType else { throw .unsupportedMediaType(Self.formMediaTypes) }
        switch type.essence {
        case MediaType.urlEncodedForm:
            return FormData(fields: try URLEncodedForm.decode(body, limits: limits))
        case MediaType.multipartForm:
            guard let boundary = type.parameter("boundary"), !boundary.isEmpty, boundary.utf8.count <= 70 else {
                throw .badRequest("The multipart body has no boundary (or one longer than 70 bytes).")
            }
            return try Multipart.decode(body, boundary: boundary, limits: limits)
        default:
            throw .unsupportedMediaType(Self.formMediaTypes)
        }
    }

    /// The JSON body decoded as `type`: 415 unless the body is `application/json` (or a
    /// `+json` type), 422 naming the field at fault, 400 when it is not JSON, 413 past
    /// `limits`.
    public func decodeJSON<Value: Decodable>(_ type: Value.Type, limits: BodyLimits = BodyLimits()) throws -> Value {
        guard let essence = mediaType?.essence, essence == MediaType.json || essence.hasSuffix("+json") else {
            throw HTTPError.unsupportedMediaType([MediaType.json])
        }
        return try JSONBody.decode(type, from: body, limits: limits)
    }

    /// Whether `Content-Type` is `application/x-www-form-urlencoded` as it stands, in any
    /// case and without parameters: what browsers send with a form, told without taking
    /// the field apart (a post asks up to three times, and `MediaType` parses the whole
    /// field, parameters and all, each time).
    private var isPlainURLEncodedForm: Bool {
        guard let value = headers["content-type"] else { return false }
        return HTTPHeaders.namesEqual(value, MediaType.urlEncodedForm)
    }

    /// The form types `decodeForm` takes (named in its 415).
    public static let formMediaTypes = [MediaType.urlEncodedForm, MediaType.multipartForm]
}
