// SPDX-License-Identifier: Apache-2.0
/// Answers requests. The engine calls it on its own threads, synchronously, once the
/// whole request has arrived; it must be thread-safe and must not block for long
/// (a slow store call holds one engine thread and the connections on its event loop).
public protocol HTTPResponder: Sendable {
    /// The response to `request`.
    func respond(to request: HTTPRequest) -> HTTPResponse
}
