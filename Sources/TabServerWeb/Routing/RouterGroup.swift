// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Routes of a `Router` under one path prefix, with middleware of their own (run inside
/// the router's, for these routes only). A value: `add(middleware:)` and `group(_:)`
/// return a new group; routes added through any of them go to the same router.
///
/// ```swift
/// let api = router.group("/api").add(middleware: RequireKey())
/// api.get("/items") { _, _ in items }
/// api.group("/admin").post("/reset") { _, _ in HTTPResponse(status: .noContent) }
/// ```
public struct RouterGroup<Context: RouterContext>: Sendable {
    let router: Router<Context>
    /// The path prefix, "/api" (no slash at the end).
    public let prefix: String
    let middleware: [any RouterMiddleware<Context>]

    /// The same group with `step` run (after the group's others) for its routes.
    public func add(middleware step: some RouterMiddleware<Context>) -> RouterGroup {
        RouterGroup(router: router, prefix: prefix, middleware: middleware + [step])
    }

    /// A group below this one, with its middleware.
    public func group(_ prefix: String) -> RouterGroup {
        RouterGroup(
            router: router, prefix: Router<Context>.normalized(self.prefix + "/" + prefix), middleware: middleware)
    }

    private func path(_ pattern: String) -> String { prefix + "/" + pattern }

    /// A route of `method` whose handler returns a response.
    public func on<Result: ResponseGenerator>(
        _ method: HTTPMethod, _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        router.on(method, path(pattern), middleware: middleware, crossSite: crossSite) { request, context in
            try await handler(request, context).response(for: request)
        }
    }

    /// A route of `method` whose handler returns a value answered as JSON.
    public func on<Result: Encodable & Sendable>(
        _ method: HTTPMethod, _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) {
        router.on(method, path(pattern), middleware: middleware, crossSite: crossSite) { request, context in
            try JSONResponse.response(try await handler(request, context))
        }
    }

    /// A GET route (it answers HEAD too) whose handler returns a response.
    public func get<Result: ResponseGenerator>(
        _ pattern: String,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) { on(.get, pattern, use: handler) }

    /// A GET route whose handler returns a value answered as JSON.
    public func get<Result: Encodable & Sendable>(
        _ pattern: String,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) { on(.get, pattern, use: handler) }

    /// A POST route whose handler returns a response.
    public func post<Result: ResponseGenerator>(
        _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) { on(.post, pattern, crossSite: crossSite, use: handler) }

    /// A POST route whose handler returns a value answered as JSON.
    public func post<Result: Encodable & Sendable>(
        _ pattern: String, crossSite: CrossSiteRequests = .refused,
        use handler: nonisolated(nonsending) @escaping @Sendable (HTTPRequest, Context) async throws -> Result
    ) { on(.post, pattern, crossSite: crossSite, use: handler) }
}
