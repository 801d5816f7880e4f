// SPDX-License-Identifier: Apache-2.0
/// Answers requests: the seam between the engine and the app. The engine calls it on its
/// event loops once the whole request has arrived: first `immediateAnswer(to:)`, which
/// answers what needs no waiting (a page seen before, a static file) on the loop's thread
/// without a task; when that has none, `answer(to:)` as a task that prefers the loop's own
/// executor, so the app's async code runs on that loop and its answer is written there
/// without a hop (docs/threads.md). The in-process test client calls the same two.
///
/// ```swift
/// struct Hello: HTTPResponder {
///     func answer(to request: HTTPRequest) async -> ResponderAnswer {
///         ResponderAnswer(.text("hello\n"))
///     }
/// }
/// ```
public protocol HTTPResponder: Sendable {
    /// The answer, when it can be given now without waiting for anything; nil sends the
    /// request to `answer(to:)`. The default has none.
    func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer?
    /// The answer. It never throws: failures are answers too (an error page).
    ///
    /// It runs on the caller's executor (the loop's, for the engine's task): a plain
    /// `async` implementation satisfies it too, entered with one hop more.
    nonisolated(nonsending) func answer(to request: HTTPRequest) async -> ResponderAnswer
}

extension HTTPResponder {
    /// Nothing is answered without the async path.
    public func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer? { nil }

    /// The response to `request`, by whichever path answers it (tests, tools).
    public func response(for request: HTTPRequest) async -> HTTPResponse {
        if let answer = immediateAnswer(to: request) { return answer.response }
        return await answer(to: request).response
    }
}
