// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A router's routes frozen for lookups: read by every request without a lock. Routes
/// are indexed by their first segment when it is a literal, so a request compares only
/// the patterns that can match it.
public struct RouteTable<Context: RouterContext>: Sendable {
    /// One route: its method, pattern, middleware and handler.
    @usableFromInline
    struct Route: Sendable {
        let method: HTTPMethod
        /// The pattern as written, normalized: the route's label in metrics.
        let label: String
        let pattern: RoutePattern
        @usableFromInline let middleware: MiddlewareChain<Context>
        /// Whether it takes other sites' requests (see `CrossSiteRequests`).
        @usableFromInline let crossSite: CrossSiteRequests
        @usableFromInline let handler: Router<Context>.Handler
    }

    /// What a lookup found.
    public enum Resolution: Sendable {
        /// The route: its middleware and handler, what its pattern captured, and its index
        /// in `labels`.
        case found(Match)
        /// The path exists for these methods only (405 with `Allow`); the index in
        /// `labels` of the first pattern that matched.
        case methodNotAllowed([HTTPMethod], label: Int)
        case notFound
    }

    /// A route a request resolved to.
    public struct Match: Sendable {
        public let middleware: MiddlewareChain<Context>
        public let handler: Router<Context>.Handler
        public let parameters: RouteParameters
        /// Index of the route's pattern in `labels`.
        public let label: Int
        /// Whether the route takes other sites' requests.
        public let crossSite: CrossSiteRequests

        @usableFromInline
        init(
            middleware: MiddlewareChain<Context>, handler: @escaping Router<Context>.Handler,
            parameters: RouteParameters, label: Int, crossSite: CrossSiteRequests
        ) {
            self.middleware = middleware
            self.handler = handler
            self.parameters = parameters
            self.label = label
            self.crossSite = crossSite
        }
    }

    @usableFromInline let routes: [Route]
    /// Finds a request's route by the routes' methods and patterns alone.
    @usableFromInline let locator: RouteLocator
    /// Each route's index in `labels`.
    @usableFromInline let labelIndex: [Int]
    /// Every distinct pattern, in the order first added: a bounded set of labels for
    /// metrics, unlike raw paths.
    public let labels: [String]

    init(_ routes: [Route]) {
        self.routes = routes
        locator = RouteLocator(methods: routes.map(\.method), patterns: routes.map(\.pattern))
        var labels: [String] = []
        var labelIndex: [Int] = []
        for route in routes {
            if let existing = labels.firstIndex(of: route.label) {
                labelIndex.append(existing)
            } else {
                labelIndex.append(labels.count)
                labels.append(route.label)
            }
        }
        self.labels = labels
        self.labelIndex = labelIndex
    }

    /// Finds the route for a request.
    ///
    /// Inlinable, so it is built for the caller's `Context`: run generically, every routed
    /// request would ask the runtime for the metadata of `Route` and copy the route; the
    /// search itself (`RouteLocator`) is not generic.
    @inlinable
    public func resolve(_ method: HTTPMethod, _ path: String) -> Resolution {
        switch locator.locate(method, path) {
        case .found(let index, let parameters):
            return .found(
                Match(
                    middleware: routes[index].middleware, handler: routes[index].handler, parameters: parameters,
                    label: labelIndex[index], crossSite: routes[index].crossSite))
        case .methodNotAllowed(let allowed, let first):
            return .methodNotAllowed(allowed, label: labelIndex[first])
        case .notFound:
            return .notFound
        }
    }
}
