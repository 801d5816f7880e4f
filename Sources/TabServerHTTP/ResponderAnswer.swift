// SPDX-License-Identifier: Apache-2.0
/// What a responder gives the engine for one request: the response, and what only the
/// engine uses it for — a note for the access log, and a slot in which the engine may keep
/// its own prepared form of a response sent many times unchanged.
///
/// ```swift
/// var answer = ResponderAnswer(response)
/// answer.logNote = "client=203.0.113.9"     // the client a trusted proxy named
/// ```
public struct ResponderAnswer: Sendable {
    /// The response.
    public var response: HTTPResponse
    /// Appended to this request's access-log line; nil adds nothing.
    public var logNote: String?
    /// Set for a response sent many times unchanged (a static file, a finished page):
    /// the engine prepares its head once and reuses it, unless it must add
    /// `Connection: close`.
    public var prepared: ResponseCache?

    /// The answer `response`, with no note and nothing prepared.
    public init(_ response: HTTPResponse, logNote: String? = nil, prepared: ResponseCache? = nil) {
        self.response = response
        self.logNote = logNote
        self.prepared = prepared
    }
}
