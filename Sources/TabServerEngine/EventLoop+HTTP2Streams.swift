// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerHTTP1
import TabServerHTTP2

/// HTTP/2 streams: a request built as over HTTP/1.1 and given to the same responder,
/// its answer (now, later, or an app's stream) submitted to nghttp2, the access log, the
/// deadlines the sweep enforces, and the drain.
extension EventLoop {
    /// Fields HTTP/2 forbids in a response (RFC 9113 §8.2.2), or the engine writes itself.
    private static let http2DroppedFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "content-length", "date",
    ]

    /// A stream's request begins (complete, or refused): it is in flight until it closes.
    func beginHTTP2Request(_ stream: HTTP2Stream, method: String?, target: String?, now: UInt64) {
        stream.request = AccessLogRecord(start: now, method: method, target: target)
        engine.inFlight.add(1, ordering: .relaxed)
    }

    /// Gives a complete request to the responder, as the HTTP/1.1 path would.
    func dispatchHTTP2(_ received: HTTP2Request, stream: HTTP2Stream, on connection: Connection, now: UInt64) {
        beginHTTP2Request(stream, method: received.method, target: received.path, now: now)
        let method = HTTPMethod(received.method)
        stream.method = method
        let request: HTTPRequest
        do {
            request = try makeRequest(received, method: method, address: connection.address)
        } catch {
            respondHTTP2(
                ResponderAnswer(.text("\(error.status): \(error.message)\n", status: error.status)),
                to: received.streamID, stream: stream, on: connection)
            return
        }
        switch ask(consume request) {
        case .now(let answer):
            respondHTTP2(answer, to: received.streamID, stream: stream, on: connection)
        case .later(let pending):
            stream.pending = pending
            stream.waitingSince = now
            let descriptor = connection.descriptor
            pending.attach(to: self, descriptor: descriptor)
        }
    }

    /// The `HTTPRequest` of a stream: its path and query decoded as over HTTP/1.1, the
    /// authority as `Host`, split `cookie` fields joined (RFC 9113 §8.2.3).
    private func makeRequest(_ received: HTTP2Request, method: HTTPMethod, address: String) throws(EngineRejection)
        -> HTTPRequest
    {
        let target = Array(received.path.utf8)
        guard target.first == UInt8(ascii: "/") else {
            throw EngineRejection(status: .badRequest, message: "The request target must be a path.")
        }
        let questionMark = target.firstIndex(of: UInt8(ascii: "?"))
        let path = try RequestHead.decodePercent(questionMark.map { target[..<$0] } ?? target[...], plusIsSpace: false)
        var query: [(name: String, value: String)] = []
        if let questionMark {
            for pair in target[(questionMark + 1)...].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "="))
                let name = try RequestHead.decodePercent(equals.map { pair[..<$0] } ?? pair, plusIsSpace: true)
                var value = ""
                if let equals { value = try RequestHead.decodePercent(pair[(equals + 1)...], plusIsSpace: true) }
                query.append((name, value))
            }
        }
        var headers = HTTPHeaders()
        var cookies: [String] = []
        var hasHost = false
        for field in received.headers {
            if field.name == "cookie" {
                cookies.append(field.value)
                continue
            }
            if field.name == "host" { hasHost = true }
            headers.add(field.name, field.value)
        }
        if !cookies.isEmpty { headers.add("cookie", cookies.joined(separator: "; ")) }
        if !hasHost {
            guard !received.authority.isEmpty else {
                throw EngineRejection(status: .badRequest, message: "The request names no authority.")
            }
            headers.add("host", received.authority)
        }
        var request = HTTPRequest(
            method: method, path: path, query: query, headers: headers, body: received.body, remoteAddress: address,
            version: "HTTP/2")
        request.isSecure = true
        return request
    }

    /// Submits an answer to nghttp2: the status, the responder's valid fields, `date` and
    /// `content-length` (none for a stream), and the body unless a HEAD or the status has none.
    func respondHTTP2(_ answer: ResponderAnswer, to id: Int32, stream: HTTP2Stream, on connection: Connection) {
        guard let http2 = connection.http2 else { return }
        let response = answer.response
        var fields: [(name: String, value: String)] = []
        for field in response.headers {
            let name = field.name.lowercased()
            if Self.http2DroppedFields.contains(name) { continue }
            guard Self.isValidField(name: name, value: field.value) else {
                engine.errorLog.write(
                    "dropped invalid response header \(field.name.debugDescription)", level: .warn)
                continue
            }
            fields.append((name, field.value))
        }
        if let value = engine.strictTransportSecurityValue { fields.append(("strict-transport-security", value)) }
        let dateLine = date.current()  // "Date: …\r\n"
        fields.append(("date", String(decoding: dateLine.dropFirst(6).dropLast(2), as: UTF8.self)))
        var isStream = false
        if case .stream = response.body { isStream = true }
        let hasBody = ResponseHead.hasBody(response.status)
        if hasBody && !isStream { fields.append(("content-length", String(response.body.count))) }
        let sendsBody = stream.method != .head && hasBody
        var body: HTTP2ResponseBody?
        if !sendsBody, case .stream(let appStream) = response.body {
            appStream.close()  // a HEAD's stream: nothing of it is sent
        }
        if sendsBody {
            switch response.body {
            case .empty: break
            case .bytes(let bytes): body = HTTP2ResponseBody(bytes: bytes)
            case .shared(let shared): body = HTTP2ResponseBody(shared: shared)
            case .stream(let appStream): body = HTTP2ResponseBody(stream: appStream)
            }
        }
        stream.body = body
        stream.request?.answered(
            status: response.status.code, bytes: sendsBody ? response.body.count : 0, note: answer.logNote)
        let total = UInt64(body?.unread ?? 0)
        stream.deadline = monotonicNanos() + engine.sendTimeoutNanos + total / engine.minimumRate * 1_000_000_000
        guard http2.session.respond(to: id, status: response.status.code, headers: fields, body: body) else {
            body?.stream?.close()
            return
        }
        if let appStream = body?.stream {
            let descriptor = connection.descriptor
            appStream.attach { [weak self] in self?.streamReady(descriptor) }
        }
    }

    /// Whether a field may go out: a token name, a value without CR, LF or NUL.
    private static func isValidField(name: String, value: String) -> Bool {
        !name.isEmpty
            && name.utf8.allSatisfy { byte in
                (byte >= 0x61 && byte <= 0x7a) || (byte >= 0x30 && byte <= 0x39)
                    || "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
            && !value.utf8.contains { $0 == 13 || $0 == 10 || $0 == 0 }
    }

    /// Wakes from other threads: answers that arrived, and what the apps' streams wrote.
    func serviceHTTP2(_ connection: Connection) {
        guard let http2 = connection.http2 else { return }
        let now = monotonicNanos()
        for (id, stream) in http2.streams {
            if let pending = stream.pending, let answer = pending.take() {
                stream.pending = nil
                respondHTTP2(answer, to: id, stream: stream, on: connection)
            } else if let body = stream.body, let appStream = body.stream, !body.ended {
                let (bytes, closed) = appStream.take()
                guard !bytes.isEmpty || closed else { continue }
                body.append(bytes, last: closed)
                stream.request?.bytes += bytes.count
                if stream.deadline == nil { stream.deadline = now + engine.sendTimeoutNanos }
                http2.session.resume(id)
            }
        }
        flushHTTP2(connection)
    }

    /// A stream ends (answered, or `aborted`): counted, and its access-log line (with
    /// the protocol `h2`) added to the loop's batch.
    func finishHTTP2Request(_ stream: HTTP2Stream, on connection: Connection, aborted: Bool) {
        guard let request = stream.request.take() else { return }
        connection.http1.servedOverHTTP2()
        engine.inFlight.subtract(1, ordering: .relaxed)
        engine.completed.add(1, ordering: .relaxed)
        guard let log = engine.accessLog else { return }
        request.append(
            to: &accessLogBatch, format: log.format, address: connection.address,
            durationNanos: monotonicNanos() &- request.start, aborted: aborted, tlsVersion: connection.tls?.version,
            protocolName: "h2")
        accessLogLines += 1
    }

    /// The connection ends with streams open: each is logged as abandoned, the apps'
    /// streams told.
    func abandonHTTP2Streams(_ connection: Connection) {
        guard let http2 = connection.http2 else { return }
        for stream in http2.streams.values {
            stream.body?.stream?.close()
            stream.pending?.abandon()
            finishHTTP2Request(stream, on: connection, aborted: true)
        }
        http2.streams = [:]
    }

    /// The sweep for an HTTP/2 connection: a socket that takes nothing, a window kept
    /// shut, a request read too slowly or answered too late, an idle connection, a drain;
    /// the state machine decides, the loop acts.
    func sweepHTTP2(_ connection: Connection, now: UInt64, draining: Bool) {
        guard let http2 = connection.http2 else { return }
        let actions = http2.machine.sweep(
            now: now, streams: http2.streamStates, served: connection.http1.requestsServed > 0, draining: draining,
            limits: engine.http2Limits)
        for action in actions {
            switch action {
            case .close:
                closeNow(connection, aborted: true)
                return
            case .timeOut(let id):
                guard let stream = http2.streams[id] else { continue }
                engine.timedOut.add(1, ordering: .relaxed)
                beginHTTP2Request(stream, method: nil, target: nil, now: stream.opened)
                respondHTTP2(
                    ResponderAnswer(
                        .text("408 Request Timeout: the request arrived too slowly.\n", status: .requestTimeout)),
                    to: id, stream: stream, on: connection)
            case .abandon(let id):
                guard let stream = http2.streams[id] else { continue }
                stream.pending?.abandon()
                stream.pending = nil
                http2.session.reset(id, code: .internalError)
            case .clearDeadline(let id):
                http2.streams[id]?.deadline = nil
            case .release(let id), .endStream(let id):
                http2.session.reset(id, code: .noError)
            case .goAway:
                http2.session.shutdown()
            case .terminate:
                http2.session.terminate(.noError)
            }
        }
        flushHTTP2(connection)
    }
}
