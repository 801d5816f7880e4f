// SPDX-License-Identifier: Apache-2.0
/// One complete request received on a stream: its pseudo-header fields, the regular
/// fields in the order sent (names in lower case, as HTTP/2 requires), and its body.
public struct HTTP2Request: Sendable {
    public let streamID: Int32
    /// `:method`, `:scheme`, `:authority` (empty when absent) and `:path`.
    public let method: String
    public let scheme: String
    public let authority: String
    public let path: String
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    /// A request as received.
    public init(
        streamID: Int32, method: String, scheme: String, authority: String, path: String,
        headers: [(name: String, value: String)], body: [UInt8]
    ) {
        self.streamID = streamID
        self.method = method
        self.scheme = scheme
        self.authority = authority
        self.path = path
        self.headers = headers
        self.body = body
    }
}
