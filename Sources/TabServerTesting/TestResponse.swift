// SPDX-License-Identifier: Apache-2.0
import Foundation  // String searching helpers; test support only, never linked into the server.
import TabServerHTTP

/// A response as a test sees it, with helpers to read the page.
public struct TestResponse {
    public let status: Int
    public let headers: HTTPHeaders
    public let bodyBytes: [UInt8]

    public init(_ response: HTTPResponse) {
        status = response.status.code
        headers = response.headers
        bodyBytes = response.body.bytes
    }

    public init(status: Int, headers: HTTPHeaders, body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.bodyBytes = body
    }

    /// The body as UTF-8 text.
    public var body: String { String(decoding: bodyBytes, as: UTF8.self) }

    /// The `Location` header.
    public var location: String? { headers["location"] }

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
