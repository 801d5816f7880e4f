// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// An error that knows how it is answered: its status, a message for the person, the
/// fields at fault, and extra header fields. The app turns it into its error page (HTML)
/// or an RFC 9457 `application/problem+json` body (JSON) in one place; any other error a
/// handler throws is a 500, logged once. `HTTPError` is one; an app's own error types can
/// be too.
///
/// ```swift
/// struct OutOfStock: HTTPResponseError {
///     var status: HTTPStatus { .conflict }
///     var message: String { "That item is sold out." }
/// }
/// ```
public protocol HTTPResponseError: Error, Sendable {
    /// The status to answer with.
    var status: HTTPStatus { get }
    /// One or two sentences for the person who made the request (the reason phrase unless
    /// given).
    var message: String { get }
    /// The fields (form fields, JSON paths, path parameters) at fault, each with its own
    /// message: a form shows them beside its inputs, problem+json lists them.
    var fieldErrors: [FieldError] { get }
    /// Extra response header fields (`Retry-After`, `Allow`).
    var headers: HTTPHeaders { get }
}

extension HTTPResponseError {
    public var message: String { status.reason }
    public var fieldErrors: [FieldError] { [] }
    public var headers: HTTPHeaders { HTTPHeaders() }
}

extension HTTPError: HTTPResponseError {}
