// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A step requests take on their way to a route, and their answers on the way back: it
/// may answer itself (a sign-in check redirecting), change the request or the context it
/// hands on (a user it found), or call `next` and change the answer. A router's
/// middleware wraps every answer it gives; a group's wraps the group's routes.
///
/// ```swift
/// struct ServerTiming: RouterMiddleware {
///     func handle(
///         _ request: HTTPRequest, context: RequestContext,
///         next: (HTTPRequest, RequestContext) async throws -> HTTPResponse
///     ) async throws -> HTTPResponse {
///         let started = ContinuousClock.now
///         var response = try await next(request, context)
///         let milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
///         response.headers.add("Server-Timing", "app;dur=\((milliseconds * 1000).rounded() / 1000)")
///         return response
///     }
/// }
/// ```
public protocol RouterMiddleware<Context>: Sendable {
    associatedtype Context: Sendable
    /// The answer to `request`: its own, or `next`'s (possibly changed).
    func handle(
        _ request: HTTPRequest, context: Context, next: (HTTPRequest, Context) async throws -> HTTPResponse
    ) async throws -> HTTPResponse
}

/// A middleware step written as a closure.
///
/// ```swift
/// router.group("/api").add(middleware: MiddlewareStep("powered-by") { request, context, next in
///     var response = try await next(request, context)
///     response.headers.add("X-Powered-By", "TabServer")
///     return response
/// })
/// ```
public struct MiddlewareStep<Context: Sendable>: RouterMiddleware, CustomStringConvertible {
    /// The step's name, for listings and logs.
    public let name: String
    private let body:
        @Sendable (
            HTTPRequest, Context, (HTTPRequest, Context) async throws -> HTTPResponse
        ) async throws -> HTTPResponse

    /// A step named `name` that runs `body`.
    public init(
        _ name: String,
        _ body:
            @escaping @Sendable (
                HTTPRequest, Context, (HTTPRequest, Context) async throws -> HTTPResponse
            ) async throws -> HTTPResponse
    ) {
        self.name = name
        self.body = body
    }

    public func handle(
        _ request: HTTPRequest, context: Context, next: (HTTPRequest, Context) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        try await body(request, context, next)
    }

    public var description: String { name }
}
