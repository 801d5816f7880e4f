// SPDX-License-Identifier: Apache-2.0
/// What one HTTP/2 connection may ask of the server: streams at once, the size of a
/// request's header list and body, the flow-control window the server offers, and how
/// many streams the client may reset in a window of time (CVE-2023-44487, "rapid reset").
///
/// ```swift
/// let limits = HTTP2Limits(maximumHeaderListSize: 32 * 1024, maximumBodySize: 64 * 1024)
/// ```
public struct HTTP2Limits: Sendable, Hashable {
    /// SETTINGS_MAX_CONCURRENT_STREAMS: streams the client may have open at once.
    public var maximumConcurrentStreams: UInt32
    /// SETTINGS_MAX_HEADER_LIST_SIZE (RFC 9113 §6.5.2: names, values and 32 bytes per
    /// field); a longer list is answered 431.
    public var maximumHeaderListSize: Int
    /// Fields one request may carry (as over HTTP/1.1); more are answered 431.
    public var maximumHeaderFields: Int
    /// The largest request body; a larger one is answered 413.
    public var maximumBodySize: Int
    /// Body bytes held for all the requests a connection is receiving at once (bodies
    /// are whole before the responder sees them); past it the stream whose DATA does not
    /// fit is reset (REFUSED_STREAM). Four bodies by default.
    public var maximumBufferedBodyBytes: Int
    /// SETTINGS_INITIAL_WINDOW_SIZE: bytes the client may send on a stream unacknowledged.
    public var initialWindowSize: UInt32
    /// Client RST_STREAM frames allowed within `resetWindowSeconds`; past them the
    /// connection gets GOAWAY (ENHANCE_YOUR_CALM). nghttp2's own token bucket
    /// (`resetBurst`, `resetRate` per second) runs as well.
    public var resetBudget: Int
    public var resetWindowSeconds: Int
    public var resetBurst: UInt64
    public var resetRate: UInt64
    /// CONTINUATION frames allowed after one HEADERS frame (nghttp2 closes the session past them).
    public var maximumContinuations: Int
    /// SETTINGS and PING frames (and other frames nghttp2 must acknowledge) that may wait
    /// unsent; past them nghttp2 reports a flood and the connection is closed.
    public var maximumOutboundAcknowledgements: Int

    /// The limits, with the request's header list and body bounded as over HTTP/1.1.
    public init(
        maximumConcurrentStreams: UInt32 = 100, maximumHeaderListSize: Int, maximumHeaderFields: Int = 100,
        maximumBodySize: Int, maximumBufferedBodyBytes: Int? = nil, initialWindowSize: UInt32 = 65_535,
        resetBudget: Int = 200,
        resetWindowSeconds: Int = 10, resetBurst: UInt64 = 400, resetRate: UInt64 = 33, maximumContinuations: Int = 8,
        maximumOutboundAcknowledgements: Int = 1000
    ) {
        self.maximumConcurrentStreams = maximumConcurrentStreams
        self.maximumHeaderListSize = maximumHeaderListSize
        self.maximumHeaderFields = maximumHeaderFields
        self.maximumBodySize = maximumBodySize
        self.maximumBufferedBodyBytes = maximumBufferedBodyBytes ?? 4 * maximumBodySize
        self.initialWindowSize = initialWindowSize
        self.resetBudget = resetBudget
        self.resetWindowSeconds = resetWindowSeconds
        self.resetBurst = resetBurst
        self.resetRate = resetRate
        self.maximumContinuations = maximumContinuations
        self.maximumOutboundAcknowledgements = maximumOutboundAcknowledgements
    }
}
