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
    /// Appended to this request's access-log line (e.g. the client address a trusted
    /// proxy reported); nil adds nothing.
    public var accessLogNote: String?
    /// The index of the route this answers, for an app's metrics (nil: no route).
    public var metricsRoute: Int?
    /// Set on a response sent many times unchanged (a static file): the engine prepares
    /// it once and reuses that, unless it must add `Connection: close`.
    public var cache: ResponseCache?

    /// A response with the given parts.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
