// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A router's routes frozen for lookups: read by every request without a lock. Routes
/// are indexed by their first segment when it is a literal, so a request compares only
/// the patterns that can match it.
public struct RouteTable<Context: RouterContext>: Sendable {
    /// One route: its method, pattern, middleware and handler.
    struct Route: Sendable {
        let method: HTTPMethod
        /// The pattern as written, normalized: the route's label in metrics.
        let label: String
        let pattern: RoutePattern
        let middleware: MiddlewareChain<Context>
        let handler: Router<Context>.Handler
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
    }

    private let routes: [Route]
    /// Each route's method and pattern, apart from its generic part: a lookup compares
    /// them without asking the runtime for `Route`'s metadata at every candidate.
    private let methods: [HTTPMethod]
    private let patterns: [RoutePattern]
    /// Routes (indices) by literal first segment; `open` holds those whose first segment
    /// is a parameter (or the root), tried for every path.
    private let byFirstSegment: [Substring: [Int]]
    private let open: [Int]
    private let labelIndex: [Int]
    /// Every distinct pattern, in the order first added: a bounded set of labels for
    /// metrics, unlike raw paths.
    public let labels: [String]

    init(_ routes: [Route]) {
        self.routes = routes
        methods = routes.map(\.method)
        patterns = routes.map(\.pattern)
        var labels: [String] = []
        var labelIndex: [Int] = []
        var byFirst: [Substring: [Int]] = [:]
        var open: [Int] = []
        for (index, route) in routes.enumerated() {
            if let existing = labels.firstIndex(of: route.label) {
                labelIndex.append(existing)
            } else {
                labelIndex.append(labels.count)
                labels.append(route.label)
            }
            if case .literal(let first)? = route.pattern.segments.first {
                byFirst[first, default: []].append(index)
            } else {
                open.append(index)
            }
        }
        self.labels = labels
        self.labelIndex = labelIndex
        self.byFirstSegment = byFirst
        self.open = open
    }

    /// Finds the route for a request.
    public func resolve(_ method: HTTPMethod, _ path: String) -> Resolution {
        let lookupMethod: HTTPMethod = method == .head ? .get : method
        let segments = RoutePattern.segments(of: path)
        var best: (index: Int, parameters: RouteParameters)?
        var allowed: [HTTPMethod] = []
        var firstMatch: Int?
        func consider(_ index: Int) {
            let pattern = patterns[index]
            guard let parameters = pattern.match(segments) else { return }
            let routeMethod = methods[index]
            if routeMethod == method || routeMethod == lookupMethod {
                // Replaced only by a strictly more specific one: the first added wins a tie.
                if let current = best, !pattern.isMoreSpecific(than: patterns[current.index]) { return }
                best = (index, parameters)
                return
            }
            if firstMatch == nil || index < firstMatch! { firstMatch = index }
            if !allowed.contains(routeMethod) {
                allowed.append(routeMethod)
                if routeMethod == .get && !allowed.contains(.head) { allowed.append(.head) }
            }
        }
        if let first = segments.first, let candidates = byFirstSegment[first] {
            for index in candidates { consider(index) }
        }
        for index in open { consider(index) }
        if let best {
            let route = routes[best.index]
            return .found(
                Match(
                    middleware: route.middleware, handler: route.handler, parameters: best.parameters,
                    label: labelIndex[best.index]))
        }
        if let firstMatch, !allowed.isEmpty { return .methodNotAllowed(allowed, label: labelIndex[firstMatch]) }
        return .notFound
    }
}
