// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// Answering: a request begins, goes to the responder and finishes (counted, logged);
/// an answer that comes later wakes the loop and is sent then.
extension EventLoop {
    /// A request begins (its head parsed, or refused as received): it is in flight
    /// until `finishRequest`.
    func beginRequest(_ connection: Connection, method: String?, target: String?, now: UInt64) {
        connection.request = AccessLogRecord(start: now, method: method, target: target)
        engine.inFlight.add(1, ordering: .relaxed)
    }

    /// Calls the responder for the complete request (`head`, and the connection's
    /// `body`) and queues its answer, or waits for it.
    func dispatch(_ connection: Connection, head: RequestHead) {
        var request = HTTPRequest(
            method: head.method, path: head.path, query: head.query, headers: head.headers, body: connection.http1.body,
            remoteAddress: connection.address, version: head.version)
        if connection.tls != nil { request.isSecure = true }
        let asked = ask(consume request)
        let close = !head.keepAlive || engine.draining
        let http10KeepAlive = head.version == "HTTP/1.0" && head.keepAlive
        switch consume asked {
        case .now(let answer):
            queue(answer, on: connection, method: head.method, close: close, keepAliveForHTTP10: http10KeepAlive)
            flush(connection)
        case .later(let pending):
            // The loop serves other connections meanwhile; `resume` sends the answer.
            connection.http1.await(
                Connection.AwaitedAnswer(
                    pending: pending, method: head.method, close: close, keepAliveForHTTP10: http10KeepAlive),
                now: monotonicNanos())
            let descriptor = connection.descriptor
            pending.attach(to: self, descriptor: descriptor)
        }
    }

    /// Answers a request the engine refuses itself, then closes (after a linger). `method`
    /// is the request's when its head was parsed (a HEAD's refusal has no body).
    func reject(_ connection: Connection, _ rejection: EngineRejection, method: HTTPMethod = .get) {
        let response = HTTPResponse.text("\(rejection.status): \(rejection.message)\n", status: rejection.status)
        queue(ResponderAnswer(response), on: connection, method: method, close: true, keepAliveForHTTP10: false)
        flush(connection)
    }

    /// Called from any thread when a stream or a deferred answer of `descriptor` has
    /// something for the loop. Only the first of a burst writes to the wake pipe: a group
    /// of answers completed together costs one wake-up.
    func streamReady(_ descriptor: Int32) {
        if isOnLoopThread {
            localReady.append(descriptor)
            return
        }
        let first = readyStreams.withLock { ready -> Bool in
            ready.append(descriptor)
            return ready.count == 1
        }
        if first { wake() }
    }

    /// Sends an answer that has arrived from its task, then serves pipelined requests.
    func resume(_ connection: Connection) {
        guard case .waiting(_, let awaited) = connection.phase, let answer = awaited.pending.take() else { return }
        guard setInterest(connection, .input) else { return }
        queue(
            answer, on: connection, method: awaited.method, close: awaited.close,
            keepAliveForHTTP10: awaited.keepAliveForHTTP10)
        flush(connection)
        guard connections[connection.descriptor] === connection else { return }
        if case .idle = connection.phase, !connection.http1.input.isEmpty {
            process(connection, now: monotonicNanos())
        }
    }

    /// The request in flight ends (answered, or abandoned when `aborted`): counted, and
    /// its access-log line added to the loop's batch.
    func finishRequest(_ connection: Connection, aborted: Bool) {
        guard let request = connection.request.take() else { return }
        engine.inFlight.subtract(1, ordering: .relaxed)
        engine.completed.add(1, ordering: .relaxed)
        guard let log = engine.accessLog else { return }
        request.append(
            to: &accessLogBatch, format: log.format, address: connection.address,
            durationNanos: monotonicNanos() &- request.start, aborted: aborted, tlsVersion: connection.tls?.version)
        accessLogLines += 1
    }

    /// Hands the access-log lines of this pass of the loop to the log's writer (one lock,
    /// no write on this thread).
    func handOverAccessLog() {
        guard accessLogLines > 0, let log = engine.accessLog else { return }
        log.append(batch: &accessLogBatch, lines: accessLogLines)
        accessLogLines = 0
    }
}
