// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A step every request takes on its way to the routes: it may answer itself (a sign-in
/// check redirecting), change the request, or pass it on with `next` and change the
/// answer (`HTTPAnswer.map`). Steps run in the order of their `MiddlewareChain`; they
/// run on the engine's threads, so they must be quick and thread-safe.
///
/// ```swift
/// struct RequireSignIn: Middleware {
///     func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
///         guard request.headers["x-forwarded-user"] == nil, !request.path.hasPrefix("/healthz") else {
///             return next(request)
///         }
///         return .now(.redirect(to: "/sign-in"))
///     }
/// }
/// ```
public protocol Middleware: Sendable {
    /// The answer to `request`: its own, or `next(request)`'s (possibly changed).
    func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer
}

/// A middleware step written as a closure.
///
/// ```swift
/// let poweredBy = MiddlewareStep("powered-by") { request, next in
///     next(request).map { response in
///         var response = response
///         response.headers.add("X-Powered-By", "TabServer")
///         return response
///     }
/// }
/// ```
public struct MiddlewareStep: Middleware, CustomStringConvertible {
    /// The step's name, for listings and logs.
    public let name: String
    private let body: @Sendable (HTTPRequest, (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer

    /// A step named `name` that runs `body`.
    public init(
        _ name: String, _ body: @escaping @Sendable (HTTPRequest, (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer
    ) {
        self.name = name
        self.body = body
    }

    public func handle(_ request: HTTPRequest, next: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        body(request, next)
    }

    public var description: String { name }
}
