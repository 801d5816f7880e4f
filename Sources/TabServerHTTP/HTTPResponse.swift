// SPDX-License-Identifier: Apache-2.0
/// A response the engine writes to the client.
///
/// ```swift
/// var response = HTTPResponse(status: .ok, body: .bytes(page))
/// response.headers.add("Content-Type", "text/html; charset=utf-8")
/// ```
public struct HTTPResponse: Sendable, Hashable {
    /// The status line's code.
    public var status: HTTPStatus
    /// Header fields; the engine adds `Content-Length` and `Date` itself.
    public var headers: HTTPHeaders
    /// The body.
    public var body: HTTPBody

    /// A response with the given parts.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
