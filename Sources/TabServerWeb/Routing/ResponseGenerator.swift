// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerHTTP
import TabServerJSON

/// Anything a route handler may return that knows its response. `HTTPResponse` is one;
/// any `Encodable` value answers as JSON (the router's `Encodable` overloads), so a
/// handler returns `[Item]` or `Item` as it is.
public protocol ResponseGenerator: Sendable {
    /// The response for `request`.
    func response(for request: HTTPRequest) throws -> HTTPResponse
}

extension HTTPResponse: ResponseGenerator {
    public func response(for request: HTTPRequest) -> HTTPResponse { self }
}

/// An `Encodable` value answered as `application/json` (UTF-8, keys sorted, so the same
/// value always gives the same bytes).
public struct JSONResponse<Value: Encodable & Sendable>: ResponseGenerator {
    /// The value to encode.
    public let value: Value
    /// The status (200 unless told otherwise: 201 for something created).
    public var status: HTTPStatus

    public init(_ value: Value, status: HTTPStatus = .ok) {
        self.value = value
        self.status = status
    }

    public func response(for request: HTTPRequest) throws -> HTTPResponse {
        try Self.response(value, status: status)
    }

    /// `value` as a JSON response.
    public static func response(_ value: Value, status: HTTPStatus = .ok) throws -> HTTPResponse {
        let bytes = try JSONBytesEncoder.encode(value)
        // Room for three more: what middleware and the commit add (a timing header, a
        // cookie) then fits without growing the list.
        var headers = HTTPHeaders(capacity: 6)
        headers.add("Content-Type", "application/json")
        headers.add("Cache-Control", "no-store")
        headers.add("X-Content-Type-Options", "nosniff")
        return HTTPResponse(status: status, headers: headers, body: .bytes(bytes))
    }
}
