// SPDX-License-Identifier: Apache-2.0
/// Why an HTTP/2 session ended itself on the bytes it received.
public struct HTTP2Failure: Error, Sendable {
    /// nghttp2's words for it (or the server's, for too many resets).
    public let reason: String
    /// A flood (SETTINGS, PING or other frames that need an answer, sent faster than the
    /// client reads the answers): nothing more can be sent, so close at once. Otherwise
    /// GOAWAY is queued: send it, then close.
    public let isFlood: Bool
}
