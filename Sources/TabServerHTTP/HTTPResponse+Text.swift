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

    /// A 303 See Other to `location` (a path, with the app's base path if it has one):
    /// where a middleware step sends a visitor, never cached.
    public static func redirect(to location: String) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Location", location)
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .seeOther, headers: headers)
    }
}
