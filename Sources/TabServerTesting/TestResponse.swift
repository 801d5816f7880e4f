// SPDX-License-Identifier: Apache-2.0
import Foundation  // String searching helpers; test support only, never linked into the server.
import TabServerHTTP

/// An answer as a test sees it (what `TestClient`'s calls return): its status, headers
/// and body, with helpers to read a page's forms and a JSON body.
///
/// ```swift
/// let list = await client.get("/tabs/list")
/// #expect(list.status == 200)
/// let added = await client.post("/tabs/list", form: [("csrf", list.csrfToken ?? ""), ("item", "Eggs")])
/// #expect(added.status == 303 && added.location == "/tabs/list")
/// let items = try await client.get("/api/items").decode([Item].self)
/// ```
public struct TestResponse {
    /// The status code (200, 303, 422, …).
    public let status: Int
    /// The headers, looked up without regard to case (`headers["content-type"]`).
    public let headers: HTTPHeaders
    /// The body as sent (decompressed by nothing: ask without `Accept-Encoding` for text).
    public let bodyBytes: [UInt8]

    /// The answer a responder gave in-process.
    public init(_ response: HTTPResponse) {
        status = response.status.code
        headers = response.headers
        bodyBytes = response.body.bytes
    }

    /// An answer read from a socket.
    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.bodyBytes = body
    }

    /// The body as UTF-8 text.
    public var body: String { String(decoding: bodyBytes, as: UTF8.self) }

    /// The `Location` header.
    public var location: String? { headers["location"] }

    /// The body decoded from JSON as `type` (a route's `Encodable` answer, a
    /// `application/problem+json` error); throws the decoder's error when it is not one.
    public func decode<Value: Decodable>(_ type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: Data(bodyBytes))
    }

    /// The first CSRF token in the page's forms.
    public var csrfToken: String? { attribute(named: "value", inTagContaining: "name=\"csrf\"") }

    /// The value of `attribute` in the first tag whose text contains `marker`.
    public func attribute(named attribute: String, inTagContaining marker: String) -> String? {
        let text = body
        guard let markerRange = text.range(of: marker) else { return nil }
        guard let open = text[..<markerRange.lowerBound].lastIndex(of: "<"),
            let close = text[markerRange.upperBound...].firstIndex(of: ">")
        else { return nil }
        let tag = text[open...close]
        guard let start = tag.range(of: "\(attribute)=\"") else { return nil }
        let rest = tag[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }

    /// Every match of the tag (by a marker inside it), e.g. all bar buttons.
    public func tags(containing marker: String) -> [String] {
        var result: [String] = []
        let text = body
        var searchStart = text.startIndex
        while let range = text.range(of: marker, range: searchStart..<text.endIndex) {
            if let open = text[..<range.lowerBound].lastIndex(of: "<"),
                let close = text[range.upperBound...].firstIndex(of: ">")
            {
                result.append(String(text[open...close]))
            }
            searchStart = range.upperBound
        }
        return result
    }

    /// The text between the first `start` and the following `end` marker.
    public func section(from start: String, to end: String) -> String? {
        let text = body
        guard let open = text.range(of: start), let close = text.range(of: end, range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.lowerBound..<close.upperBound])
    }
}
