// SPDX-License-Identifier: Apache-2.0
import CNGHTTP2

/// The server side of one HTTP/2 connection, driven by nghttp2 (framing, HPACK, flow
/// control, stream states and their checks are nghttp2's): bytes received go in with
/// `receive`, what it learned comes out of `takeEvents`, answers go in with `respond`,
/// and the bytes to send come out of `send`. Owns every nghttp2 pointer; none leaves it.
///
/// ```swift
/// guard let session = HTTP2Session(limits: limits) else { close(connection) }
/// guard session.receive(bytes) == nil else { flush and close }
/// for event in session.takeEvents() { ... session.respond(to: id, status: 200, headers: [...], body: page) }
/// var out: [UInt8] = []
/// _ = session.send(into: &out, limit: 64 * 1024)
/// ```
///
/// Not `Sendable`: one event loop owns it, with its connection. nghttp2 calls back only
/// during `receive` and `send`, into this object (its `user_data`), which outlives the
/// nghttp2 session it deletes in `deinit`.
public final class HTTP2Session {
    var session: OpaquePointer?
    let limits: HTTP2Limits

    /// A request being received: its pseudo-header fields, fields and body so far.
    struct Incoming {
        var method = ""
        var scheme = ""
        var authority = ""
        var path = ""
        var headers: [(name: String, value: String)] = []
        var headerBytes = 0
        var body: [UInt8] = []
        /// Set once a limit is broken (the refusal is reported once, the rest ignored).
        var refused = false
    }

    var incoming: [Int32: Incoming] = [:]
    /// Body bytes held for all requests being received.
    var bufferedBodyBytes = 0
    /// Streams answered whose body nghttp2 reads from a source.
    var sources: [Int32: any HTTP2BodySource] = [:]
    /// Streams with an answer submitted (closed without error: not reset).
    var answered: Set<Int32> = []
    var events: [HTTP2Event] = []
    /// Client resets in the current window, and when that window began.
    var resets = 0
    var resetWindowStart: ContinuousClock.Instant = .now
    /// Set when the session ended itself (GOAWAY sent): nothing more is read.
    public private(set) var isTerminated = false
    /// The highest client stream a HEADERS frame opened so far.
    var highestClientStream: Int32 = 0
    /// Why the session ended itself, when it did on what it received.
    var terminationReason: String?

    /// A server session that has queued its SETTINGS (sent by the first `send`); nil
    /// when nghttp2 is out of memory.
    public init?(limits: HTTP2Limits) {
        self.limits = limits
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
        defer { nghttp2_session_callbacks_del(callbacks) }
        Self.install(callbacks)
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { return nil }
        defer { nghttp2_option_del(option) }
        nghttp2_option_set_max_outbound_ack(option, limits.maximumOutboundAcknowledgements)
        nghttp2_option_set_max_settings(option, 32)
        nghttp2_option_set_stream_reset_rate_limit(option, limits.resetBurst, limits.resetRate)
        nghttp2_option_set_max_continuations(option, limits.maximumContinuations)
        var created: OpaquePointer?
        let status = nghttp2_session_server_new2(
            &created, callbacks, Unmanaged.passUnretained(self).toOpaque(), option)
        guard status == 0, let created else { return nil }
        session = created
        var settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue),
                value: limits.maximumConcurrentStreams),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: limits.initialWindowSize),
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_HEADER_LIST_SIZE.rawValue),
                value: UInt32(clamping: limits.maximumHeaderListSize)),
            nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
        ]
        guard nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count) == 0
        else { return nil }
    }

    deinit { nghttp2_session_del(session) }

    /// Feeds received bytes to nghttp2. Nil when all were taken; else why the connection
    /// must end (a protocol error, a flood, too many resets): GOAWAY is queued unless it
    /// is a flood, so `send` what is left, then close.
    public func receive(_ bytes: UnsafeRawBufferPointer) -> HTTP2Failure? {
        guard let session, !bytes.isEmpty else { return nil }
        let result = nghttp2_session_mem_recv(
            session, bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), bytes.count)
        if result < 0 {
            isTerminated = true
            let isFlood = result == Int(NGHTTP2_ERR_FLOODED.rawValue)
            // nghttp2 has queued GOAWAY itself for most errors; for a bad preface it has not.
            if !isFlood { _ = nghttp2_session_terminate_session(session, HTTP2ErrorCode.protocolError.rawValue) }
            return HTTP2Failure(reason: String(cString: nghttp2_strerror(Int32(result))), isFlood: isFlood)
        }
        if isTerminated {
            return HTTP2Failure(reason: terminationReason ?? "too many streams reset by the client", isFlood: false)
        }
        return nil
    }

    /// What was learned since the last call, in order.
    public func takeEvents() -> [HTTP2Event] {
        defer { events.removeAll(keepingCapacity: true) }
        return events
    }

    /// Appends the bytes nghttp2 has to send (frames, with DATA read from the bodies'
    /// sources) to `out`, until it has nothing more or `out` holds `limit` bytes. False
    /// on a fatal error (the connection must close).
    public func send(into out: inout [UInt8], limit: Int) -> Bool {
        guard let session else { return false }
        while out.count < limit {
            var data: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &data)
            if count < 0 { return false }
            guard count > 0, let data else { return true }
            out.append(contentsOf: UnsafeBufferPointer(start: data, count: count))
        }
        return true
    }

    /// Submits the answer of `streamID`: its status and fields (names are lowered; fields
    /// HTTP/2 forbids, such as `Connection`, are the caller's to leave out), then the body
    /// read from `body` (none when nil). False when the stream is gone.
    @discardableResult
    public func respond(
        to streamID: Int32, status: Int, headers: [(name: String, value: String)], body: (any HTTP2BodySource)?
    ) -> Bool {
        guard let session else { return false }
        var storage: [UInt8] = []
        var spans: [(Int, Int, Int, Int)] = []
        func add(_ name: String, _ value: String) {
            let nameStart = storage.count
            storage.append(contentsOf: name.lowercased().utf8)
            let valueStart = storage.count
            storage.append(contentsOf: value.utf8)
            spans.append((nameStart, valueStart - nameStart, valueStart, storage.count - valueStart))
        }
        add(":status", String(status))
        for field in headers { add(field.name, field.value) }
        if let body { sources[streamID] = body }
        answered.insert(streamID)
        let result = storage.withUnsafeMutableBufferPointer { bytes -> Int32 in
            let base = bytes.baseAddress!  // never empty: `:status` is in it
            var fields = spans.map { span in
                nghttp2_nv(
                    name: base + span.0, value: base + span.2, namelen: span.1, valuelen: span.3,
                    flags: UInt8(NGHTTP2_NV_FLAG_NONE.rawValue))
            }
            if body == nil {
                return nghttp2_submit_response(session, streamID, &fields, fields.count, nil)
            }
            var provider = nghttp2_data_provider(
                source: nghttp2_data_source(ptr: nil), read_callback: Self.readBody)
            return nghttp2_submit_response(session, streamID, &fields, fields.count, &provider)
        }
        if result != 0 {
            sources[streamID] = nil
            answered.remove(streamID)
        }
        return result == 0
    }

    /// The source of `streamID` has more bytes (or its end): nghttp2 reads it again.
    public func resume(_ streamID: Int32) {
        guard let session else { return }
        _ = nghttp2_session_resume_data(session, streamID)
    }

    /// Resets one stream (its answer abandoned).
    public func reset(_ streamID: Int32, code: HTTP2ErrorCode) {
        guard let session else { return }
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), streamID, code.rawValue)
    }

    /// A graceful end (a drain, an idle connection): GOAWAY naming the last stream taken,
    /// so streams in progress finish and no new ones start.
    public func shutdown() {
        guard let session else { return }
        _ = nghttp2_submit_goaway(
            session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nghttp2_session_get_last_proc_stream_id(session),
            HTTP2ErrorCode.noError.rawValue, nil, 0)
    }

    /// Ends the session at once with `code` (GOAWAY queued; `send` it, then close).
    public func terminate(_ code: HTTP2ErrorCode) {
        guard let session else { return }
        isTerminated = true
        _ = nghttp2_session_terminate_session(session, code.rawValue)
    }

    /// Whether nghttp2 still reads or writes: when neither, the connection is done.
    public var isActive: Bool {
        guard let session else { return false }
        return nghttp2_session_want_read(session) != 0 || nghttp2_session_want_write(session) != 0
    }

    /// Whether nghttp2 has frames to send now.
    public var wantsWrite: Bool {
        guard let session else { return false }
        return nghttp2_session_want_write(session) != 0
    }
}
