// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerCrypto
import TabServerHTTP
import TabServerHTTP1

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
            if case .idle = connection.phase, !connection.http1.input.isEmpty {
                process(connection, now: monotonicNanos())
            }
            return
        }
        if events & (EpollEvents.input | EpollEvents.readHangUp) != 0 {
            readAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection) {
        guard connection.http1.reads else { return }
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
        if received == 0 {
            switch connection.http1.inputEnded() {
            case .answerThenClose: setInterest(connection, .none)
            case .close: closeNow(connection, aborted: connection.request != nil)
            }
            return
        }
        let now = monotonicNanos()
        let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<received])
        switch connection.http1.receive(bytes, now: now, limits: engine.http1Limits) {
        case .parse: process(connection, now: now)
        case .discard: break
        case .hold(let full): if full { setInterest(connection, .none) }
        }
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

    /// Serves every complete request in the input, one at a time, as the state machine
    /// says.
    func process(_ connection: Connection, now: UInt64) {
        while connections[connection.descriptor] === connection {
            let step = connection.http1.step(now: now, limits: engine.http1Limits, fields: fields)
            switch consume step {
            case .wait:
                return
            case .reject(let rejection, let method):
                if connection.request == nil {
                    beginRequest(connection, method: rejection.method, target: rejection.target, now: now)
                }
                reject(connection, rejection, method: method)
                return
            case .body(let head):
                dispatch(connection, head: head)
            case .head(let head, let next):
                beginRequest(connection, method: head.method.description, target: head.target, now: now)
                switch next {
                case .answerFromHead:
                    guard let responder = engine.headResponder, answerFromHead(connection, head: head, responder)
                    else { return }
                case .dispatch:
                    dispatch(connection, head: head)
                case .reject(let rejection):
                    reject(connection, rejection, method: head.method)
                    return
                case .sendContinue:
                    guard sendContinue(connection) else { return }
                case .readBody:
                    break
                }
            }
        }
    }

    /// Answers from the head alone (a `HeadResponder`): a request with a body is answered
    /// without reading it, then the connection closes (its body is discarded while
    /// lingering). True when the next pipelined request may follow.
    private func answerFromHead(_ connection: Connection, head: RequestHead, _ responder: any HeadResponder) -> Bool {
        let answer = responder.answer(toHead: head)
        let close = answer.close || head.framing != .none || !head.keepAlive || engine.draining
        let http10KeepAlive = head.version == "HTTP/1.0" && head.keepAlive
        queue(
            ResponderAnswer(answer.response), on: connection, method: head.method, close: close,
            keepAliveForHTTP10: http10KeepAlive)
        flush(connection)
        return !close
    }

    /// Sends `100 Continue` at once; false when the connection was closed instead.
    private func sendContinue(_ connection: Connection) -> Bool {
        // Nothing else is queued yet, so the 25 bytes fit the empty socket buffer; a
        // short or failed send would leave the client waiting or misframe the answer.
        let sent = sendInterim(connection)
        guard sent != Self.continueInterim.count else { return true }
        let code = sent < 0 ? errno : EAGAIN
        // A peer that is gone is no engine error; anything else is.
        if code != EPIPE && code != ECONNRESET {
            engine.recordSystemCallError("send(100 Continue)", errno: code)
        }
        closeNow(connection, aborted: true)
        return false
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
}
