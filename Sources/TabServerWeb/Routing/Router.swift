// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP

/// Routes by method and path pattern to async handlers: `{name}` takes one segment,
/// a trailing `{name*}` the rest of the path. Handlers return an `HTTPResponse`, any
/// `ResponseGenerator`, or any `Encodable` value (answered as JSON). HEAD is answered
/// by the GET route (the engine drops the body); a path that exists for other methods
/// answers 405 with `Allow`. When several patterns match, the most specific wins (a
/// literal segment over a parameter over the rest, from the first segment on), then the
/// first added. Routes are added while the app is set up, from anywhere; `group(_:)`
/// shares a path prefix and middleware among routes.
///
/// ```swift
/// let router = Router<RequestContext>()
/// router.get("/api/items") { _, _ in await items.all }                     // [String] as JSON
/// let api = router.group("/api").add(middleware: RequireKey())
/// api.get("/items/{index}") { _, context in
///     try await items.item(at: context.parameters.require("index", as: Int.self))
/// }
/// ```
public final class Router<Context: RouterContext>: Sendable {
    /// A route's handler: the request and the per-request context, its parameters filled in.
    public typealias Handler = nonisolated(nonsending) @Sendable (HTTPRequest, Context) async throws -> HTTPResponse

    private let routes = Mutex<[RouteTable<Context>.Route]>([])

    /// An empty router.
    public init() {}

    /// Adds a route. Traps on a malformed pattern: routes are fixed at start-up by code.
    /// A route of a method that changes something refuses other sites' requests unless
    /// `crossSite` is `.allowed` (see `CrossSiteRequests`).
    public func on(
        _ method: HTTPMethod, _ pattern: String, middleware: [any RouterMiddleware<Context>] = [],
        crossSite: CrossSiteRequests = .refused, use handler: @escaping Handler
    ) {
        let route = RouteTable<Context>.Route(
            method: method, label: Self.normalized(pattern), pattern: RoutePattern(pattern),
            middleware: MiddlewareChain(middleware), crossSite: crossSite, handler: handler)
        routes.withLock { $0.append(route) }
    }

    /// A group of routes under `prefix` ("/api"), sharing middleware added to it.
    public func group(_ prefix: String) -> RouterGroup<Context> {
        RouterGroup(router: self, prefix: Self.normalized(prefix), middleware: [])
    }

    /// The routes as they are now, for lookups (taken when the app starts serving).
    public func table() -> RouteTable<Context> {
        RouteTable(routes.withLock { $0 })
    }

    /// `/a/b` for `a/b/`, `/a//b`: one slash between segments, none at the end.
    static func normalized(_ pattern: String) -> String {
        let segments = pattern.split(separator: "/", omittingEmptySubsequences: true)
        return "/" + segments.joined(separator: "/")
    }
}

extension Router {
    /// A GET route (it answers HEAD too) whose handler returns a response.
    public func get<Result: ResponseGenerator>(
        _ pattern: String,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        on(.get, pattern) { request, context in try await handler(request, context).response(for: request) }
    }

    /// A GET route whose handler returns a value answered as JSON.
    public func get<Result: Encodable & Sendable>(
        _ pattern: String,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        on(.get, pattern) { request, context in try JSONResponse.response(try await handler(request, context)) }
    }

    /// A POST route whose handler returns a response.
    public func post<Result: ResponseGenerator>(
        _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        on(.post, pattern, crossSite: crossSite) { request, context in
            try await handler(request, context).response(for: request)
        }
    }

    /// A POST route whose handler returns a value answered as JSON.
    public func post<Result: Encodable & Sendable>(
        _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        on(.post, pattern, crossSite: crossSite) { request, context in
            try JSONResponse.response(try await handler(request, context))
        }
    }

    /// A route of any method whose handler returns a response (PUT, PATCH, DELETE).
    public func on<Result: ResponseGenerator>(
        _ method: HTTPMethod, _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        on(method, pattern, crossSite: crossSite) { request, context in
            try await handler(request, context).response(for: request)
        }
    }

    /// A route of any method whose handler returns a value answered as JSON.
    public func on<Result: Encodable & Sendable>(
        _ method: HTTPMethod, _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        on(method, pattern, crossSite: crossSite) { request, context in
            try JSONResponse.response(try await handler(request, context))
        }
    }
}
