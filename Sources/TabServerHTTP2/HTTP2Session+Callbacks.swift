// SPDX-License-Identifier: Apache-2.0
import CNGHTTP2

/// nghttp2's callbacks: C functions that find the session through `user_data` and turn
/// what nghttp2 parsed into `HTTP2Event`s. They run only inside `receive` and `send`.
extension HTTP2Session {
    static func install(_ callbacks: OpaquePointer) {
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, user in
            guard let header, let user else { return 0 }
            return HTTP2Session.owner(user).beginFrame(header.pointee)
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            return HTTP2Session.owner(user).beginHeaders(frame)
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) {
            _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let name, let value, let user else { return 0 }
            return HTTP2Session.owner(user).header(
                frame, name: UnsafeBufferPointer(start: name, count: nameLength),
                value: UnsafeBufferPointer(start: value, count: valueLength))
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, streamID, data, length, user in
            guard let data, let user else { return 0 }
            HTTP2Session.owner(user).data(streamID, UnsafeBufferPointer(start: data, count: length))
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            HTTP2Session.owner(user).frameReceived(frame)
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, streamID, code, user in
            guard let user else { return 0 }
            HTTP2Session.owner(user).streamClosed(streamID, code: code)
            return 0
        }
    }

    fileprivate static func owner(_ user: UnsafeMutableRawPointer) -> HTTP2Session {
        Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
    }

    /// The body source's read callback (nghttp2's data provider): the next DATA frame's bytes.
    static let readBody: nghttp2_data_source_read_callback = { _, streamID, buffer, length, flags, _, user in
        guard let user, let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        let session = HTTP2Session.owner(user)
        guard let source = session.sources[streamID] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        switch source.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: length)) {
        case .bytes(let count, let last):
            if last {
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
                session.sources[streamID] = nil
            }
            return count
        case .later:
            return Int(NGHTTP2_ERR_DEFERRED.rawValue)
        }
    }

    /// Every frame's head, before nghttp2 acts on it. A HEADERS frame that would open a
    /// client stream with an id not above one already opened is a connection error
    /// (RFC 9113 §5.1.1): nghttp2 itself only ignores it when it no longer knows the
    /// stream, so the client would wait for an answer that never comes. Trailers on a
    /// stream still open are HEADERS on a known stream, and pass.
    private func beginFrame(_ header: nghttp2_frame_hd) -> Int32 {
        guard header.type == UInt8(NGHTTP2_HEADERS.rawValue), header.stream_id & 1 == 1, let session else { return 0 }
        let id = header.stream_id
        guard id <= highestClientStream else {
            highestClientStream = id
            return 0
        }
        if let stream = nghttp2_session_find_stream(session, id) {
            let state = nghttp2_stream_get_state(stream)
            if state == NGHTTP2_STREAM_STATE_OPEN || state == NGHTTP2_STREAM_STATE_HALF_CLOSED_LOCAL { return 0 }
        }
        guard !isTerminated else { return 0 }
        terminationReason = "HEADERS opened stream \(id), not above stream \(highestClientStream) opened before"
        terminate(.protocolError)
        return 0
    }

    private func beginHeaders(_ frame: UnsafePointer<nghttp2_frame>) -> Int32 {
        guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
            frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
        else { return 0 }
        let streamID = frame.pointee.hd.stream_id
        incoming[streamID] = Incoming()
        events.append(.opened(streamID: streamID))
        return 0
    }

    private func header(
        _ frame: UnsafePointer<nghttp2_frame>, name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>
    ) -> Int32 {
        guard frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
            frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
        else { return 0 }  // trailers are not kept
        let streamID = frame.pointee.hd.stream_id
        guard var request = incoming[streamID], !request.refused else { return 0 }
        request.headerBytes += name.count + value.count + 32
        if request.headerBytes > limits.maximumHeaderListSize || request.headers.count >= limits.maximumHeaderFields {
            request.refused = true
            request.headers = []
            incoming[streamID] = request
            events.append(.refused(streamID: streamID, .headersTooLarge))
            return 0
        }
        let nameText = String(decoding: name, as: UTF8.self)
        let valueText = String(decoding: value, as: UTF8.self)
        switch nameText {
        case ":method": request.method = valueText
        case ":scheme": request.scheme = valueText
        case ":authority": request.authority = valueText
        case ":path": request.path = valueText
        default: request.headers.append((nameText, valueText))
        }
        incoming[streamID] = request
        return 0
    }

    private func data(_ streamID: Int32, _ bytes: UnsafeBufferPointer<UInt8>) {
        guard var request = incoming[streamID], !request.refused else { return }
        incoming[streamID] = nil  // no copy of the body while it grows
        if request.body.count + bytes.count > limits.maximumBodySize {
            request.refused = true
            bufferedBodyBytes -= request.body.count
            request.body = []
            events.append(.refused(streamID: streamID, .bodyTooLarge))
        } else if bufferedBodyBytes + bytes.count > limits.maximumBufferedBodyBytes {
            // Many bodies at once past what one connection may hold: this stream is
            // refused (the client may retry it), the others go on.
            request.refused = true
            bufferedBodyBytes -= request.body.count
            request.body = []
            reset(streamID, code: .refusedStream)
        } else {
            request.body.append(contentsOf: bytes)
            bufferedBodyBytes += bytes.count
        }
        incoming[streamID] = request
    }

    private func frameReceived(_ frame: UnsafePointer<nghttp2_frame>) {
        let header = frame.pointee.hd
        let type = Int(header.type)
        if type == Int(NGHTTP2_RST_STREAM.rawValue) {
            countReset(header.stream_id)
            return
        }
        guard type == Int(NGHTTP2_HEADERS.rawValue) || type == Int(NGHTTP2_DATA.rawValue),
            header.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0,
            let request = incoming.removeValue(forKey: header.stream_id)
        else { return }
        bufferedBodyBytes -= request.body.count
        guard !request.refused else { return }
        events.append(
            .request(
                HTTP2Request(
                    streamID: header.stream_id, method: request.method, scheme: request.scheme,
                    authority: request.authority, path: request.path, headers: request.headers, body: request.body)))
    }

    /// Rapid reset: a client that resets more than the budget of streams within the
    /// window gets GOAWAY (ENHANCE_YOUR_CALM), whatever nghttp2's own bucket says.
    private func countReset(_ streamID: Int32) {
        let now = ContinuousClock.now
        if now - resetWindowStart > .seconds(limits.resetWindowSeconds) {
            resetWindowStart = now
            resets = 0
        }
        resets += 1
        if resets > limits.resetBudget && !isTerminated { terminate(.enhanceYourCalm) }
    }

    private func streamClosed(_ streamID: Int32, code: UInt32) {
        if let request = incoming.removeValue(forKey: streamID) { bufferedBodyBytes -= request.body.count }
        sources[streamID] = nil
        let wasAnswered = answered.remove(streamID) != nil
        events.append(.closed(streamID: streamID, reset: code != 0 || !wasAnswered))
    }
}
