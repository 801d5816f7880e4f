// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// Middleware steps in order, ending in a terminal (the route). Each step sees an answer,
/// never an error: what the route or an inner step throws is turned into its response
/// (`recover`) before it reaches the step outside it, so a step that adds a header adds
/// it to error pages too.
///
/// ```swift
/// let chain = MiddlewareChain<RequestContext>([ServerTiming()])
/// let response = await chain.run(request, context, recover: errorPage) { request, context in
///     try await route(request, context)
/// }
/// ```
public struct MiddlewareChain<Context: Sendable>: Sendable {
    /// The steps, first (outermost) to last.
    public private(set) var steps: [any RouterMiddleware<Context>]

    /// A chain of `steps`.
    public init(_ steps: [any RouterMiddleware<Context>] = []) {
        self.steps = steps
    }

    /// Adds a step inside the others.
    public mutating func add(_ step: any RouterMiddleware<Context>) {
        steps.append(step)
    }

    /// Whether there are no steps.
    public var isEmpty: Bool { steps.isEmpty }

    /// Runs `request` through every step, then `terminal`.
    ///
    /// Inlinable, so the caller's build knows `Context`: run generically, every request
    /// would ask the runtime for the metadata of `any RouterMiddleware<Context>`.
    @inlinable
    public func run(
        _ request: HTTPRequest, _ context: Context,
        recover: (any Error, HTTPRequest, Context) -> HTTPResponse,
        terminal: (HTTPRequest, Context) async throws -> HTTPResponse
    ) async -> HTTPResponse {
        await run(from: 0, request, context, recover: recover, terminal: terminal)
    }

    @inlinable
    func run(
        from index: Int, _ request: HTTPRequest, _ context: Context,
        recover: (any Error, HTTPRequest, Context) -> HTTPResponse,
        terminal: (HTTPRequest, Context) async throws -> HTTPResponse
    ) async -> HTTPResponse {
        do {
            guard index < steps.count else { return try await terminal(request, context) }
            return try await steps[index].handle(request, context: context) { request, context in
                await run(from: index + 1, request, context, recover: recover, terminal: terminal)
            }
        } catch {
            return recover(error, request, context)
        }
    }
}
