// SPDX-License-Identifier: Apache-2.0
extension HTTPResponse {
    /// A short plain-text response that is never cached: health checks, and the answers
    /// given outside the app's pages (a request the engine rejects, a path outside the
    /// base path).
    ///
    /// ```swift
    /// return .text("ok\n")
    /// ```
    public static func text(_ text: String, status: HTTPStatus = .ok) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: status, headers: headers, body: .bytes(Array(text.utf8)))
    }
}
