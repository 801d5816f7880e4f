/// A response the engine writes to the client.
///
/// ```swift
/// var response = HTTPResponse(status: .ok, body: .bytes(page))
/// response.headers.add("Content-Type", "text/html; charset=utf-8")
/// ```
public struct HTTPResponse: Sendable, Hashable {
    /// The status line's code.
    public var status: HTTPStatus
    /// Header fields; libmicrohttpd adds `Content-Length` and `Date` itself.
    public var headers: HTTPHeaders
    /// The body.
    public var body: HTTPBody
    /// Appended to this request's access-log line (e.g. the client address a trusted
    /// proxy reported); nil adds nothing.
    public var accessLogNote: String?
    /// The same response prepared inside the engine once (see `PreparedResponse`); the
    /// engine queues it as is unless it must add `Connection: close`.
    public var prepared: PreparedResponse?

    /// A response with the given parts.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: HTTPBody = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
