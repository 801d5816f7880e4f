// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerHTTP
import TabServerTLS

#if canImport(Glibc)
    import Glibc
#endif

/// Reading requests: readiness events, the bytes that arrive, heads parsed with
/// picohttpparser and bodies framed by length or chunked, served one at a time.
extension EventLoop {
    /// Acts on one readiness event of `connection`.
    func handle(_ connection: Connection, events: UInt32) {
        if events & (EpollEvents.error | EpollEvents.hangUp) != 0 && events & EpollEvents.input == 0 {
            closeNow(connection, aborted: connection.request != nil)
            return
        }
        if case .http2 = connection.phase {
            handleHTTP2(connection, events: events)
            return
        }
        if let tls = connection.tls, !tls.isEstablished {
            // Either readiness may be what the handshake waits for.
            readAvailable(connection)
            return
        }
        if events & EpollEvents.output != 0 {
            flush(connection)
            guard connections[connection.descriptor] === connection else { return }
            if case .idle = connection.phase, !connection.input.isEmpty { process(connection, now: monotonicNanos()) }
            return
        }
        if events & (EpollEvents.input | EpollEvents.readHangUp) != 0 {
            readAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection) {
        if case .responding = connection.phase { return }
        let received: Int
        if let tls = connection.tls {
            guard let count = receive(connection, over: tls) else { return }
            received = count
        } else {
            received = read(connection.descriptor, readBuffer.baseAddress, readBuffer.count)
            if received < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
                closeNow(connection, aborted: connection.request != nil)
                return
            }
        }
        if received == 0, case .waiting(let since, var answer) = connection.phase {
            // The client sent its request and closed its side: it still gets the answer.
            answer.close = true
            connection.phase = .waiting(since: since, answer: answer)
            setInterest(connection, .none)
            return
        }
        if received == 0 {
            // The client closed its side: nothing more will come.
            closeNow(connection, aborted: connection.request != nil)
            return
        }
        if case .lingering = connection.phase { return }  // discard
        if case .streaming = connection.phase { return }  // a stream's client says nothing
        if case .waiting = connection.phase {
            // Pipelined bytes behind a pending answer wait for it; past the memory allowed
            // a connection, reading pauses until the answer is sent.
            connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]))
            if connection.input.count >= engine.configuration.memoryPerConnection { setInterest(connection, .none) }
            return
        }
        let now = monotonicNanos()
        if case .idle = connection.phase { connection.phase = .head(since: now, scanned: 0) }
        connection.input.append(contentsOf: UnsafeRawBufferPointer(rebasing: readBuffer[0..<received]))
        process(connection, now: now)
    }

    /// Reads over TLS into the read buffer, the handshake first while it is unfinished:
    /// the decrypted bytes, 0 at the end of the stream, or nil when there is nothing yet
    /// (the interest set for what TLS waits for) or the connection was closed (garbage,
    /// a refused version or cipher). The read buffer holds a whole record (16 KiB), so no
    /// decrypted bytes stay inside OpenSSL where the level-triggered epoll cannot see them.
    private func receive(_ connection: Connection, over tls: TLSSession) -> Int? {
        if !tls.isEstablished {
            switch tls.handshake() {
            case .done:
                guard setInterest(connection, .input) else { return nil }
                if tls.applicationProtocol == "h2" {
                    startHTTP2(connection)
                    return nil
                }
            case .wantRead:
                setInterest(connection, .input)
                return nil
            case .wantWrite:
                setInterest(connection, .output)
                return nil
            case .closed, .failed:
                closeNow(connection, aborted: false)
                return nil
            }
        }
        switch tls.read(into: readBuffer) {
        case .done(let count):
            return count
        case .closed:
            return 0
        case .wantRead:
            return nil
        case .wantWrite:
            // A record TLS must send first (a key update's answer): the output event's
            // flush puts the interest back to input.
            if connection.outbound.hasPending == false { setInterest(connection, .output) }
            return nil
        case .failed:
            closeNow(connection, aborted: connection.request != nil)
            return nil
        }
    }

    /// Serves every complete request in the input, one at a time.
    func process(_ connection: Connection, now: UInt64) {
        while connections[connection.descriptor] === connection {
            switch connection.phase {
            case .idle:
                guard !connection.input.isEmpty else { return }
                connection.phase = .head(since: now, scanned: 0)
            case .head(let since, let scanned):
                guard readHead(connection, since: since, scanned: scanned, now: now) else { return }
            case .body(let since, let head, let chunked):
                guard readBody(connection, since: since, head: head, chunked: chunked) else { return }
                dispatch(connection, head: head)
            case .waiting, .responding, .lingering, .streaming, .http2:
                return  // nothing to parse now; HTTP/2's frames go to nghttp2
            }
        }
    }

    /// Parses the head (`scanned` bytes of the input were scanned before); false while
    /// it is incomplete (or the request was refused).
    private func readHead(_ connection: Connection, since: UInt64, scanned: Int, now: UInt64) -> Bool {
        // RFC 9112 §2.2: empty lines before a request line are ignored (some clients send
        // a CRLF after a POST body).
        if scanned == 0 {
            let blank = connection.input.prefix { $0 == 13 || $0 == 10 }.count
            if blank > 0 {
                connection.input.removeFirst(blank)
                if connection.input.isEmpty { return false }
            }
        }
        let outcome = connection.input.withUnsafeBytes { bytes in
            RequestHead.parse(
                bytes, previousLength: scanned,
                maximumLength: engine.configuration.memoryPerConnection, fields: fields)
        }
        switch outcome {
        case .incomplete:
            connection.phase = .head(since: since, scanned: connection.input.count)
            return false
        case .rejected(let rejection):
            beginRequest(connection, method: rejection.method, target: rejection.target, now: now)
            reject(connection, rejection)
            return false
        case .complete(let head, let length):
            connection.input.removeFirst(length)
            beginRequest(connection, method: head.method.description, target: head.target, now: now)
            if let redirect = engine.redirect { return answerRedirect(connection, head: head, redirect) }
            if let rejection = checkBody(of: head) {
                reject(connection, rejection, method: head.method)
                return false
            }
            if head.framing == .none {
                dispatch(connection, head: head)
                return true
            }
            if head.expectsContinue {
                // Nothing else is queued yet, so the 25 bytes fit the empty socket buffer; a
                // short or failed send would leave the client waiting or misframe the answer.
                let sent = sendInterim(connection)
                if sent != Self.continueInterim.count {
                    let code = sent < 0 ? errno : EAGAIN
                    // A peer that is gone is no engine error; anything else is.
                    if code != EPIPE && code != ECONNRESET {
                        engine.recordSystemCallError("send(100 Continue)", errno: code)
                    }
                    closeNow(connection, aborted: true)
                    return false
                }
            }
            connection.phase = .body(
                since: now, head: head, chunked: head.framing == .chunked ? ChunkedDecoder() : nil)
            return true
        }
    }

    /// On the redirect listener: a 308 to the HTTPS origin (400 without a usable host),
    /// from the head alone. A request with a body is answered without reading it, then
    /// the connection closes (its body is discarded while lingering). True when the next
    /// pipelined request may follow.
    private func answerRedirect(_ connection: Connection, head: RequestHead, _ redirect: HTTPSRedirect) -> Bool {
        guard let location = redirect.location(host: head.headers["host"], target: head.target) else {
            reject(
                connection,
                EngineRejection(status: .badRequest, message: "This port redirects to HTTPS and needs a valid Host."),
                method: head.method)
            return false
        }
        var response = HTTPResponse.text("308 Permanent Redirect: \(location)\n", status: .permanentRedirect)
        response.headers.add("Location", location)
        let close = head.framing != .none || !head.keepAlive || engine.draining
        let http10KeepAlive = head.version == "HTTP/1.0" && head.keepAlive
        queue(
            ResponderAnswer(response), on: connection, method: head.method, close: close,
            keepAliveForHTTP10: http10KeepAlive)
        flush(connection)
        return !close
    }

    /// Sends the interim answer at once: what `send` returns, or over TLS the bytes
    /// written (short when TLS could not write it all at once, which closes).
    private func sendInterim(_ connection: Connection) -> Int {
        guard let tls = connection.tls else { return Socket.sendNow(connection.descriptor, Self.continueInterim) }
        let progress = Self.continueInterim.withUnsafeBytes { tls.write($0) }
        if case .done(let count) = progress { return count }
        return 0
    }

    /// The interim answer to `Expect: 100-continue`.
    private static let continueInterim = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

    /// What the head alone says about its body: refused before a byte of it is read.
    private func checkBody(of head: RequestHead) -> EngineRejection? {
        guard head.framing != .none else { return nil }
        if !head.method.allowsBody {
            return EngineRejection(status: .badRequest, message: "A \(head.method) request cannot carry a body here.")
        }
        if case .length(let length) = head.framing, length > engine.configuration.maxBodySize {
            return EngineRejection(
                status: .contentTooLarge,
                message: "The request body is larger than \(engine.configuration.maxBodySize) bytes.")
        }
        return nil
    }

    /// Moves body bytes of `head`'s request from the input; true once the body is complete.
    private func readBody(_ connection: Connection, since: UInt64, head: RequestHead, chunked: ChunkedDecoder?)
        -> Bool
    {
        let limit = engine.configuration.maxBodySize
        do {
            switch head.framing {
            case .none:
                return true
            case .length(let length):
                let take = min(length - connection.body.count, connection.input.count)
                connection.body.append(contentsOf: connection.input[0..<take])
                connection.input.removeFirst(take)
                return connection.body.count == length
            case .chunked:
                var decoder = chunked ?? ChunkedDecoder()
                var body = connection.body
                connection.body = []
                let consumed = try Self.decode(connection.input, with: &decoder, into: &body)
                connection.body = body
                connection.phase = .body(since: since, head: head, chunked: decoder)
                connection.input.removeFirst(consumed)
                if connection.body.count > limit {
                    throw EngineRejection(
                        status: .contentTooLarge, message: "The request body is larger than \(limit) bytes.")
                }
                return decoder.isDone
            }
        } catch let rejection as EngineRejection {
            reject(connection, rejection, method: head.method)
            return false
        } catch {
            return false
        }
    }

    private static func decode(_ input: [UInt8], with decoder: inout ChunkedDecoder, into body: inout [UInt8])
        throws(EngineRejection) -> Int
    {
        var result: Result<Int, EngineRejection> = .success(0)
        input.withUnsafeBytes { bytes in
            do throws(EngineRejection) {
                result = .success(try decoder.decode(bytes, into: &body))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}
