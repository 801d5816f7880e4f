// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A request that cannot be answered as asked, as a value: the status, a message for
/// the person (shown on the error page), and the form field or header at fault.
/// The app maps it to a page in one place (`TabServerResponder.errorPage` in TabServerCore).
///
/// ```swift
/// throw HTTPError.badRequest("Unknown action 'fly'.", field: "action")
/// ```
public struct HTTPError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The status to answer with.
    public var status: HTTPStatus
    /// One or two sentences for the person who made the request.
    public var message: String
    /// The form field (or header) that was wrong, if one was.
    public var field: String?
    /// Extra response headers (`Allow` on a 405).
    public var headers: HTTPHeaders

    /// An error with every part given.
    public init(_ status: HTTPStatus, _ message: String, field: String? = nil, headers: HTTPHeaders = HTTPHeaders()) {
        self.status = status
        self.message = message
        self.field = field
        self.headers = headers
    }

    public var description: String { "\(status.code) \(message)" }

    /// 400: the request is malformed; names the field when there is one.
    public static func badRequest(_ message: String, field: String? = nil) -> HTTPError {
        HTTPError(.badRequest, message, field: field)
    }
    /// 403.
    public static func forbidden(_ message: String) -> HTTPError { HTTPError(.forbidden, message) }
    /// 404.
    public static func notFound(_ message: String = "There is no page at this address.") -> HTTPError {
        HTTPError(.notFound, message)
    }
    /// 405 with the `Allow` header listing what the path accepts.
    public static func methodNotAllowed(allowed: [HTTPMethod]) -> HTTPError {
        var headers = HTTPHeaders()
        let list = allowed.map(\.description).joined(separator: ", ")
        headers.add("Allow", list)
        return HTTPError(.methodNotAllowed, "This address accepts only \(list).", headers: headers)
    }
    /// 413: the body is larger than a limit allows.
    public static func contentTooLarge(_ message: String, field: String? = nil) -> HTTPError {
        HTTPError(.contentTooLarge, message, field: field)
    }
    /// 415: the body is of a type this address does not take; names the types it does.
    public static func unsupportedMediaType(_ accepted: [String]) -> HTTPError {
        HTTPError(
            .unsupportedMediaType, "This address accepts only \(accepted.joined(separator: " or ")) bodies.")
    }
    /// 422: the request was understood but its content is not valid (a form's fields).
    public static func unprocessable(_ message: String, field: String? = nil) -> HTTPError {
        HTTPError(.unprocessableContent, message, field: field)
    }
    /// A value from the request, cut to 40 characters for a message.
    public static func quoted(_ text: String) -> String { String(text.prefix(40)) }
    /// 409: the request was made from a page that is out of date.
    public static func conflict(_ message: String) -> HTTPError { HTTPError(.conflict, message) }
    /// 500: a fault of the server, never of the request.
    public static func internalError(_ message: String = "Something went wrong on the server.") -> HTTPError {
        HTTPError(.internalServerError, message)
    }
    /// 429 with `Retry-After`: the client is past a budget of its own; it may try again
    /// in `retryAfter` seconds.
    public static func tooManyRequests(_ message: String, retryAfter: Int) -> HTTPError {
        var headers = HTTPHeaders()
        headers.add("Retry-After", String(max(1, retryAfter)))
        return HTTPError(.tooManyRequests, message, headers: headers)
    }
    /// 503: a dependency (the session store) is unavailable for now.
    public static func unavailable(_ message: String) -> HTTPError { HTTPError(.serviceUnavailable, message) }
}
