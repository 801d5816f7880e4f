// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// A responder for engine tests that answers every request at once, on the loop, with
/// `respond(to:)` (and, for a response sent many times unchanged, the slot the engine
/// prepares it in: `prepared(for:)`).
///
/// ```swift
/// struct Echo: ImmediateResponder {
///     func respond(to request: HTTPRequest) -> HTTPResponse { .text(request.path) }
/// }
/// ```
public protocol ImmediateResponder: HTTPResponder {
    /// The response to `request`.
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The slot the engine keeps its prepared form of `request`'s response in; nil (the
    /// default) builds it afresh.
    func prepared(for request: HTTPRequest) -> ResponseCache?
}

extension ImmediateResponder {
    public func prepared(for request: HTTPRequest) -> ResponseCache? { nil }

    public func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer? {
        ResponderAnswer(respond(to: request), prepared: prepared(for: request))
    }

    public func answer(to request: HTTPRequest) async -> ResponderAnswer {
        ResponderAnswer(respond(to: request), prepared: prepared(for: request))
    }
}
