// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Maps method and path to a handler, with `{name}` parameters and a trailing `{name*}`
/// that takes the rest of the path. HEAD is answered by the GET handler (the engine
/// drops the body). A path that exists for other methods answers 405 with `Allow`.
///
/// ```swift
/// var router = Router<AppContext>()
/// router.get("/tabs/{tab}/{location*}") { request, context in … }
/// switch router.resolve(.get, "/tabs/music/albums/12") { … }
/// ```
public struct Router<Context>: Sendable {
    /// A route's handler: the request, its parameters, and the app's per-request context.
    public typealias Handler = @Sendable (HTTPRequest, RouteParameters, inout Context) throws(HTTPError) -> HTTPResponse

    /// What a lookup found.
    public enum Resolution {
        case found(Handler, RouteParameters)
        case methodNotAllowed([HTTPMethod])
        case notFound
    }

    /// A route's handler and pattern label; its method and compiled pattern are in
    /// `matchers`, at the same index.
    private struct Route: Sendable {
        /// Index in `patterns` (routes sharing a pattern share it).
        let patternIndex: Int
        let handler: Handler
    }

    private var routes: [Route] = []
    /// Each route's method and pattern, at the route's index: the look-up walks these,
    /// which do not depend on `Context`, so it neither copies routes nor asks the runtime
    /// for a generic type's metadata on each request (both showed in profiles).
    private var matchers: [(method: HTTPMethod, pattern: RoutePattern)] = []

    /// Every distinct pattern, in the order first added: a bounded set of labels for
    /// metrics, unlike raw paths.
    public private(set) var patterns: [String] = []

    /// An empty router.
    public init() {}

    /// Adds a route. Traps on a malformed pattern: routes are fixed at start-up by code.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, _ handler: @escaping Handler) {
        let index = patterns.firstIndex(of: pattern) ?? patterns.count
        if index == patterns.count { patterns.append(pattern) }
        let compiled = RoutePattern(pattern)
        routes.append(Route(patternIndex: index, handler: handler))
        matchers.append((method, compiled))
    }

    /// Adds a GET route (which also answers HEAD).
    public mutating func get(_ pattern: String, _ handler: @escaping Handler) { on(.get, pattern, handler) }

    /// Adds a POST route.
    public mutating func post(_ pattern: String, _ handler: @escaping Handler) { on(.post, pattern, handler) }

    /// Finds the handler for a request.
    public func resolve(_ method: HTTPMethod, _ path: String) -> Resolution {
        resolveWithPattern(method, path).resolution
    }

    /// Finds the handler for a request, and the index in `patterns` of the pattern that
    /// matched (for `methodNotAllowed`, the first that matched the path; nil when none did).
    public func resolveWithPattern(_ method: HTTPMethod, _ path: String) -> (resolution: Resolution, pattern: Int?) {
        let lookupMethod: HTTPMethod = method == .head ? .get : method
        let segments = RoutePattern.segments(of: path)
        var allowed: [HTTPMethod] = []
        var firstMatch: Int?
        for index in matchers.indices {
            guard let parameters = matchers[index].pattern.match(segments) else { continue }
            let routeMethod = matchers[index].method
            if routeMethod == method || routeMethod == lookupMethod {
                return (.found(routes[index].handler, parameters), routes[index].patternIndex)
            }
            if firstMatch == nil { firstMatch = routes[index].patternIndex }
            if !allowed.contains(routeMethod) {
                allowed.append(routeMethod)
                if routeMethod == .get && !allowed.contains(.head) { allowed.append(.head) }
            }
        }
        return allowed.isEmpty ? (.notFound, nil) : (.methodNotAllowed(allowed), firstMatch)
    }
}
