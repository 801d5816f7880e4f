// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP
import TabServerHTTP1
import TabServerHTTP2

/// HTTP/2 on a TLS connection whose ALPN chose `h2`: records read into the nghttp2
/// session, its events turned into requests for the same responder, and the frames it
/// has to send written out. Streams, deadlines and the drain are in `+HTTP2Streams`.
extension EventLoop {
    /// Bytes taken from nghttp2 per write (a few TLS records).
    private static let http2WriteChunk = 64 * 1024
    /// TLS records read per readiness event before the loop serves others.
    private static let http2ReadsPerEvent = 16

    /// The handshake chose `h2`: the connection is served by an nghttp2 session from now on.
    func startHTTP2(_ connection: Connection) {
        let limits = HTTP2Limits(
            maximumHeaderListSize: engine.configuration.memoryPerConnection,
            maximumHeaderFields: RequestHead.maximumFields, maximumBodySize: engine.configuration.maxBodySize)
        guard let session = HTTP2Session(limits: limits) else {
            closeNow(connection, aborted: false)
            return
        }
        connection.http1.upgrade(to: HTTP2Connection(session: session, now: monotonicNanos()))
        // The client's preface may already wait inside TLS, unseen by epoll.
        readHTTP2(connection)
    }

    /// Acts on a readiness event of an HTTP/2 connection.
    func handleHTTP2(_ connection: Connection, events: UInt32) {
        if events & EpollEvents.output != 0 {
            flushHTTP2(connection)
            guard connections[connection.descriptor] === connection else { return }
        }
        if events & (EpollEvents.input | EpollEvents.readHangUp) != 0 { readHTTP2(connection) }
    }

    /// Reads what TLS has and feeds it to nghttp2, serves what it parsed, writes its answers.
    func readHTTP2(_ connection: Connection) {
        guard let tls = connection.tls, let http2 = connection.http2 else { return }
        for _ in 0..<Self.http2ReadsPerEvent {
            switch tls.read(into: readBuffer) {
            case .done(let count):
                if let failure = http2.session.receive(UnsafeRawBufferPointer(rebasing: readBuffer[0..<count])) {
                    endHTTP2(connection, failure: failure)
                    return
                }
                serveHTTP2Events(connection)
                guard connections[connection.descriptor] === connection, connection.http2 != nil else { return }
            case .wantRead:
                flushHTTP2(connection)
                return
            case .wantWrite:
                setInterest(connection, .both)
                return
            case .closed:
                closeNow(connection, aborted: !http2.streams.isEmpty)
                return
            case .failed:
                closeNow(connection, aborted: !http2.streams.isEmpty)
                return
            }
        }
        flushHTTP2(connection)
    }

    /// The session ended (a protocol error, too many resets, a GOAWAY of our own sent):
    /// its last frames are sent if the socket takes them, then the connection lingers and
    /// closes. A flood is closed at once: its client reads nothing anyway.
    func endHTTP2(_ connection: Connection, failure: HTTP2Failure?) {
        guard let http2 = connection.http2 else { return }
        if let failure {
            engine.http2ConnectionErrors.add(1, ordering: .relaxed)
            engine.errorLog.write(
                "HTTP/2 connection from \(connection.address) closed: \(failure.reason)", level: .info)
            if failure.isFlood {
                closeNow(connection, aborted: !http2.streams.isEmpty)
                return
            }
        }
        var bytes = connection.outbound.takeBytes()
        _ = http2.session.send(into: &bytes, limit: Self.http2WriteChunk)
        connection.outbound.load(bytes, body: nil, file: nil)
        if connection.outbound.write(to: connection.tls!) == .failed {
            closeNow(connection, aborted: !http2.streams.isEmpty)
            return
        }
        abandonHTTP2Streams(connection)
        guard setInterest(connection, .input) else { return }
        linger(connection)
    }

    /// Writes what nghttp2 has to send until it has nothing more or the socket is full,
    /// then acts on the streams that closed meanwhile; a session that neither reads nor
    /// writes any more (GOAWAY sent) ends the connection.
    func flushHTTP2(_ connection: Connection) {
        guard let http2 = connection.http2, let tls = connection.tls else { return }
        while true {
            if connection.outbound.hasPending {
                switch connection.outbound.write(to: tls) {
                case .sent: break
                case .wouldBlock:
                    http2.machine.blocked(now: monotonicNanos())
                    // Reading goes on: nghttp2 counts what it cannot acknowledge (a flood).
                    setInterest(connection, .both)
                    return
                case .failed:
                    closeNow(connection, aborted: !http2.streams.isEmpty)
                    return
                }
            }
            var bytes = connection.outbound.takeBytes()
            guard http2.session.send(into: &bytes, limit: Self.http2WriteChunk) else {
                connection.outbound.load(bytes, body: nil, file: nil)
                closeNow(connection, aborted: true)
                return
            }
            let empty = bytes.isEmpty
            connection.outbound.load(bytes, body: nil, file: nil)
            if empty { break }
        }
        http2.machine.drained()
        // Streams nghttp2 closed while sending (their last DATA out): finished and logged now.
        serveHTTP2Events(connection)
        guard setInterest(connection, .input) else { return }
        if !http2.session.isActive { endHTTP2(connection, failure: nil) }
    }

    /// Acts on what nghttp2 parsed: streams opened, requests complete or refused, streams closed.
    func serveHTTP2Events(_ connection: Connection) {
        guard let http2 = connection.http2 else { return }
        let now = monotonicNanos()
        for event in http2.session.takeEvents() {
            switch event {
            case .opened(let id):
                http2.streams[id] = HTTP2Stream(opened: now)
            case .request(let request):
                // A stream already answered (408 while it was read too slowly) is not served again.
                guard let stream = http2.streams[request.streamID], stream.request == nil else { continue }
                dispatchHTTP2(request, stream: stream, on: connection, now: now)
            case .refused(let id, let refusal):
                guard let stream = http2.streams[id], stream.request == nil else { continue }
                beginHTTP2Request(stream, method: nil, target: nil, now: now)
                let status: HTTPStatus =
                    refusal == .headersTooLarge ? .requestHeaderFieldsTooLarge : .contentTooLarge
                let message =
                    refusal == .headersTooLarge
                    ? "The request's header fields are larger than this server takes."
                    : "The request body is larger than \(engine.configuration.maxBodySize) bytes."
                respondHTTP2(
                    ResponderAnswer(.text("\(status): \(message)\n", status: status)), to: id, stream: stream,
                    on: connection)
            case .closed(let id, let reset):
                guard let stream = http2.streams.removeValue(forKey: id) else { continue }
                // A task still answering it finds nobody waiting: its answer is dropped.
                stream.pending?.abandon()
                stream.body?.stream?.close()
                finishHTTP2Request(stream, on: connection, aborted: reset)
                http2.machine.streamClosed(now: now, open: http2.streams.count)
            }
        }
    }
}
