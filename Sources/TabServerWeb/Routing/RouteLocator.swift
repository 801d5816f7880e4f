// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// The one matcher of routes: each route's method and pattern, indexed by a literal first
/// segment, and the tie-break (the most specific pattern, then the first added). A
/// `RouteTable` finds a request's route with it, and a tab its pages and actions. Not
/// generic, so a lookup asks the runtime for no type's metadata; its owner keeps the
/// routes' handlers beside it, by index.
@usableFromInline
package struct RouteLocator: Sendable {
    /// What a lookup found, by route index.
    @usableFromInline
    package enum Located {
        case found(Int, RouteParameters)
        /// The path exists for these methods only; the first route whose pattern matched.
        case methodNotAllowed([HTTPMethod], first: Int)
        case notFound
    }

    private let methods: [HTTPMethod]
    private let patterns: [RoutePattern]
    /// The distinct literal first segments and the routes (indices) under each, searched
    /// in turn: a router has a dozen at most, and comparing one costs less than hashing
    /// the path's.
    private let firstSegments: [(segment: Substring, routes: [Int])]
    /// Routes whose first segment is a parameter (or the root), tried for every path.
    private let open: [Int]

    /// Routes by index: `methods[i]` and `patterns[i]` are route `i`'s.
    package init(methods: [HTTPMethod], patterns: [RoutePattern]) {
        self.methods = methods
        self.patterns = patterns
        var firstSegments: [(segment: Substring, routes: [Int])] = []
        var open: [Int] = []
        for (index, pattern) in patterns.enumerated() {
            guard case .literal(let first)? = pattern.segments.first else {
                open.append(index)
                continue
            }
            if let known = firstSegments.firstIndex(where: { $0.segment == first }) {
                firstSegments[known].routes.append(index)
            } else {
                firstSegments.append((first, [index]))
            }
        }
        self.firstSegments = firstSegments
        self.open = open
    }

    /// The route `method` and `path` take: the most specific pattern that matches with
    /// the method (HEAD takes GET's routes), the first added on a tie.
    @usableFromInline
    func locate(_ method: HTTPMethod, _ path: String) -> Located {
        locate(method, segments: RoutePattern.segments(of: path))
    }

    /// The route `method` takes to a path already split into `segments`.
    package func locate(_ method: HTTPMethod, segments: [Substring]) -> Located {
        let lookupMethod: HTTPMethod = method == .head ? .get : method
        var best: (index: Int, parameters: RouteParameters)?
        var allowed: [HTTPMethod] = []
        var firstMatch: Int?
        // The patterns are used where they are in the array: a local copy of each cost two
        // retains and releases a candidate.
        func consider(_ index: Int) {
            guard let parameters = patterns[index].match(segments) else { return }
            let routeMethod = methods[index]
            if routeMethod == method || routeMethod == lookupMethod {
                // Replaced only by a strictly more specific one: the first added wins a tie.
                if let current = best, !patterns[index].isMoreSpecific(than: patterns[current.index]) { return }
                best = (index, parameters)
                return
            }
            if firstMatch == nil || index < firstMatch! { firstMatch = index }
            if !allowed.contains(routeMethod) {
                allowed.append(routeMethod)
                if routeMethod == .get && !allowed.contains(.head) { allowed.append(.head) }
            }
        }
        if let first = segments.first, let known = firstSegments.firstIndex(where: { $0.segment == first }) {
            for index in firstSegments[known].routes { consider(index) }
        }
        for index in open { consider(index) }
        if let best { return .found(best.index, best.parameters) }
        if let firstMatch, !allowed.isEmpty { return .methodNotAllowed(allowed, first: firstMatch) }
        return .notFound
    }
}
