// SPDX-License-Identifier: Apache-2.0
import TabServer

/// Adds `Server-Timing: app;dur=…` (milliseconds) to every answer: pages, JSON, errors
/// and static files alike.
struct ServerTiming: RouterMiddleware {
    func handle(
        _ request: HTTPRequest, context: RequestContext,
        next: (HTTPRequest, RequestContext) async throws -> HTTPResponse
    ) async throws -> HTTPResponse {
        let started = ContinuousClock.now
        var response = try await next(request, context)
        let milliseconds = (ContinuousClock.now - started) / .milliseconds(1)
        response.headers.add("Server-Timing", "app;dur=\((milliseconds * 1000).rounded() / 1000)")
        return response
    }
}
