// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// One stream of an HTTP/2 connection as the engine serves it: from its HEADERS (the
/// request being read), through the responder (perhaps an answer that comes later), to
/// its answer's last DATA frame.
final class HTTP2Stream {
    /// When its HEADERS began: the header and body deadlines run from it.
    let opened: UInt64
    /// The request as the access log records it, from its completion (or refusal).
    var request: AccessLogRecord?
    /// The request's method (a HEAD's answer has no body).
    var method: HTTPMethod = .get
    /// An answer that comes later, and since when it is awaited.
    var pending: PendingAnswer?
    var waitingSince: UInt64 = 0
    /// The answer's body as nghttp2 reads it (a page, a static file, or an app's stream).
    var body: HTTP2ResponseBody?
    /// When the bytes queued must have left (the send timeout plus the time at the
    /// minimum rate); nil while nothing waits. A client that keeps its window shut is
    /// cut when it passes.
    var deadline: UInt64?

    init(opened: UInt64) {
        self.opened = opened
    }

    /// Whether its request is still being received (no answer queued or awaited).
    var isReading: Bool { request == nil }
}
