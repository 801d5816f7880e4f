// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Middleware steps in order, ending in a terminal responder (the routes).
///
/// ```swift
/// var chain = MiddlewareChain()
/// chain.add(RequireSignIn())
/// let answer = chain.answer(request) { request in router.answer(request) }
/// ```
public struct MiddlewareChain: Sendable {
    /// The steps, first to last.
    public private(set) var steps: [any Middleware]

    /// A chain of `steps`.
    public init(_ steps: [any Middleware] = []) {
        self.steps = steps
    }

    /// Adds a step after the others.
    public mutating func add(_ step: any Middleware) {
        steps.append(step)
    }

    /// Runs `request` through every step, then `terminal`.
    public func answer(_ request: HTTPRequest, terminal: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        run(from: 0, request, terminal)
    }

    private func run(from index: Int, _ request: HTTPRequest, _ terminal: (HTTPRequest) -> HTTPAnswer) -> HTTPAnswer {
        guard index < steps.count else { return terminal(request) }
        return steps[index].handle(request) { request in run(from: index + 1, request, terminal) }
    }
}
