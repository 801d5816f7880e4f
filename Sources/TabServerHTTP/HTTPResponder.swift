// SPDX-License-Identifier: Apache-2.0
/// Answers requests. The engine calls it on its own threads, once the whole request has
/// arrived; it must be thread-safe and must not block for long (a slow store call holds
/// one engine thread and the connections on its event loop). An answer that waits for
/// something slow is given later instead (`answer(_:)` returning `.later`).
public protocol HTTPResponder: Sendable {
    /// The response to `request`, waiting for it if it comes later.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The response now, or a `DeferredResponse` completed later from any thread. The
    /// engine calls this; the default answers `respond(to:)` at once.
    func answer(_ request: HTTPRequest) -> HTTPAnswer
}

extension HTTPResponder {
    /// Answers at once.
    public func answer(_ request: HTTPRequest) -> HTTPAnswer { .now(respond(to: request)) }
}

/// What a responder gives the engine for one request.
public enum HTTPAnswer: Sendable {
    /// The response, ready.
    case now(HTTPResponse)
    /// The response comes later (see `DeferredResponse`).
    case later(DeferredResponse)

    /// The response, waiting for it if it comes later.
    public func wait() -> HTTPResponse {
        switch self {
        case .now(let response): response
        case .later(let deferred): deferred.wait()
        }
    }
}

extension HTTPAnswer {
    /// The same answer with `transform` applied to its response, now or when it comes.
    public func map(_ transform: @escaping @Sendable (HTTPResponse) -> HTTPResponse) -> HTTPAnswer {
        switch self {
        case .now(let response):
            return .now(transform(response))
        case .later(let deferred):
            let mapped = DeferredResponse()
            deferred.attach {
                if let response = deferred.take() { mapped.complete(transform(response)) }
            }
            return .later(mapped)
        }
    }
}
