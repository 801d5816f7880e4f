// SPDX-License-Identifier: Apache-2.0
/// A request as the engine received it: head and query decoded, the body whole.
///
/// The engine builds it after the whole body has arrived, so a responder never blocks
/// on the network. It frames the body (length or chunked, at most `--max-body`) and
/// decodes nothing in it: the web layer does (`decodeForm`, `decodeJSON`), and the app
/// fills `formFields` from a form post before its routes run. Tests build it directly
/// (see `TestSupport`).
public struct HTTPRequest: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The path, percent-decoded by the engine (so `%2F` arrives as `/`); no query.
    public var path: String
    /// Query arguments in order, decoded.
    public var query: [(name: String, value: String)]
    /// Header fields, names lowercased.
    public var headers: HTTPHeaders
    /// The body's bytes (empty when there is none).
    public var body: [UInt8]
    /// Text fields of a form post (`application/x-www-form-urlencoded` or
    /// `multipart/form-data`), in order, once the web layer decoded the body.
    public var formFields: [(name: String, value: String)]
    /// The socket peer's address (not a forwarded one).
    public var remoteAddress: String
    /// "HTTP/1.1" or "HTTP/1.0".
    public var version: String
    /// When the request was taken up, in nanoseconds of the monotonic clock (0: not
    /// recorded), for latency figures measured from the first step on.
    public var receivedAt: UInt64 = 0
    /// Whether it arrived over TLS on the server's own listener (not what a proxy says).
    public var isSecure = false

    /// A request with the given parts.
    public init(
        method: HTTPMethod, path: String, query: [(name: String, value: String)] = [],
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [], formFields: [(name: String, value: String)] = [],
        remoteAddress: String = "127.0.0.1", version: String = "HTTP/1.1"
    ) {
        self.body = body
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.formFields = formFields
        self.remoteAddress = remoteAddress
        self.version = version
    }

    /// The first query argument of that name.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// The first form field of that name.
    public func formValue(_ name: String) -> String? {
        formFields.first { $0.name == name }?.value
    }
}
