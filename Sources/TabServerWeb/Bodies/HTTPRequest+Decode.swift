// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

extension HTTPRequest {
    /// The body decoded as `type`, whatever form it came in: a url-encoded or multipart form
    /// (`FormDecoder`: flat names, repeated names for arrays) or JSON. A body of another
    /// type is a 415 naming the three; past `limits` a 413; a form or JSON that does not
    /// decode a 422 naming each field at fault (`RequestDecodingError`), JSON that is not
    /// JSON at all a 400.
    ///
    /// ```swift
    /// struct NewItem: Decodable { var item: String }
    /// let new = try request.decode(as: NewItem.self)
    /// ```
    public func decode<Value: Decodable>(as type: Value.Type, limits: BodyLimits = BodyLimits()) throws -> Value {
        if let essence = mediaType?.essence, essence == MediaType.json || essence.hasSuffix("+json") {
            return try JSONBody.decode(type, from: body, limits: limits)
        }
        guard hasFormBody else { throw HTTPError.unsupportedMediaType(Self.decodableMediaTypes) }
        let fields = formFields.isEmpty ? try decodeForm(limits: limits).fields : formFields
        return try FormDecoder().decode(type, from: fields)
    }

    /// The body types `decode(as:)` takes (named in its 415).
    public static let decodableMediaTypes = formMediaTypes + [MediaType.json]
}
