// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Writing answers: the head and body queued on the connection, sent without blocking
/// (`writev`, `sendfile`), and a stream's bytes pumped as the app writes them.
extension EventLoop {
    /// Buffers an idle connection keeps between requests; larger ones are freed, so
    /// 10,000 kept-alive connections do not each hold their largest body.
    private static let retainedBufferBytes = OutboundBuffer.retainedCapacity

    /// Puts `response` in the connection's outbound buffer (the head, and the body unless
    /// `method` is HEAD or the status has none) and starts the send deadline: the send
    /// timeout plus the time the body takes at the minimum rate.
    func queue(
        _ answer: ResponderAnswer, on connection: Connection, method: HTTPMethod, close: Bool, keepAliveForHTTP10: Bool
    ) {
        let response = answer.response
        var bytes = connection.outbound.takeBytes()
        var bodyFile: MemoryFile?
        if let cache = answer.prepared,
            let entry = cache.entry(orMake: { ResponseCache.Entry(prepare(response)) }),
            let prepared = PreparedHead.of(entry)
        {
            bytes.append(contentsOf: prepared.bytes)
            // Over TLS the body is encrypted from memory: `sendfile` would send it in clear.
            if connection.tls == nil { bodyFile = prepared.bodyFile }
        } else {
            ResponseHead.appendStable(response, to: &bytes, log: engine.errorLog)
        }
        if connection.tls != nil, let field = engine.strictTransportSecurityField { bytes.append(contentsOf: field) }
        var streamed = false
        if case .stream = response.body { streamed = true }
        ResponseHead.finish(
            date: date.current(), close: close || streamed, keepAliveForHTTP10: keepAliveForHTTP10, into: &bytes)
        let sendsBody = method != .head && ResponseHead.hasBody(response.status)
        var sharedBody: SharedBytes?
        var stream: ResponseStream?
        if sendsBody {
            switch response.body {
            case .empty: break
            case .bytes(let body): bytes.append(contentsOf: body)
            case .shared(let shared): sharedBody = shared
            case .stream(let body): stream = body
            }
        }
        let total = UInt64(bytes.count + (sharedBody?.count ?? 0))
        connection.outbound.load(bytes, body: sharedBody, file: bodyFile)
        var close = close
        if let stream {
            // Delimited by the end of the connection; the loop sends what the app writes.
            close = true
            let descriptor = connection.descriptor
            stream.attach { [weak self] in self?.streamReady(descriptor) }
        }
        connection.request?.answered(
            status: response.status.code, bytes: sendsBody ? response.body.count : 0, note: answer.logNote)
        let deadline = monotonicNanos() + engine.sendTimeoutNanos + total / engine.minimumRate * 1_000_000_000
        connection.http1.writing(deadline: deadline, closeAfter: close, stream: stream)
    }

    /// The head and body of a cached response, prepared once: the body as a memory file
    /// when it is a large shared one.
    private func prepare(_ response: HTTPResponse) -> PreparedHead {
        let head = ResponseHead.stable(response, log: engine.errorLog)
        guard case .shared(let shared) = response.body, shared.count >= MemoryFile.threshold else {
            return PreparedHead(head)
        }
        return PreparedHead(head, bodyFile: MemoryFile(shared))
    }

    /// Writes what it can without blocking (the rest when the socket is writable again);
    /// once all is sent, finishes the request and lingers, or waits for the next one; a
    /// stream's connection waits for the app to write more.
    func flush(_ connection: Connection) {
        let progress =
            if let tls = connection.tls {
                connection.outbound.write(to: tls)
            } else {
                connection.outbound.write(to: connection.descriptor)
            }
        switch progress {
        case .sent: break
        case .wouldBlock:
            setInterest(connection, .output)
            return
        case .failed:
            closeNow(connection, aborted: true)
            return
        }
        guard setInterest(connection, .input) else { return }
        let next = connection.http1.sent(now: monotonicNanos())
        switch next {
        case .stream(let stream):
            // Everything written so far is sent; wait for the app to write more.
            if stream.isClosed { pump(connection) }
            return
        case .nothing:
            return  // no HTTP/1.1 answer was being written
        case .next, .linger:
            break
        }
        finishRequest(connection, aborted: false)
        if connection.http1.body.capacity > Self.retainedBufferBytes { connection.http1.body = [] }
        if connection.http1.input.isEmpty && connection.http1.input.capacity > Self.retainedBufferBytes {
            connection.http1.input = []
        }
        // Pipelined requests already in `input` are served by the caller's loop.
        if case .linger = next { linger(connection) }
    }

    /// Moves what the app wrote into the connection's output and sends it; closes the
    /// connection when the stream has ended and everything is sent.
    func pump(_ connection: Connection) {
        guard let stream = connection.stream else { return }
        let (bytes, closed) = stream.take()
        if !bytes.isEmpty {
            if !connection.outbound.hasPending {
                // A new send, with its own deadline.
                connection.outbound.reset()
                connection.http1.writing(
                    deadline: monotonicNanos() + engine.sendTimeoutNanos, closeAfter: true, stream: stream)
            }
            connection.outbound.bytes.append(contentsOf: bytes)
            connection.request?.bytes += bytes.count
            flush(connection)
        }
        // All sent (`flush` left it streaming) and the app is done: the answer is complete.
        if closed, connections[connection.descriptor] === connection, case .streaming = connection.phase {
            connection.http1.streamEnded()
            finishRequest(connection, aborted: false)
            linger(connection)
        }
    }
}
