// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Answering: a request begins, goes to the responder and finishes (counted, logged);
/// an answer that comes later wakes the loop and is sent then.
extension EventLoop {
    func beginRequest(_ connection: Connection, head: RequestHead?, now: UInt64) {
        connection.head = head
        connection.logMethod = head?.method.description
        connection.logTarget = head?.target
        connection.body.removeAll(keepingCapacity: true)
        connection.chunked = nil
        connection.requestStart = now
        connection.inFlight = true
        engine.inFlight.add(1, ordering: .relaxed)
    }

    /// Calls the responder for the complete request and queues its answer.
    func dispatch(_ connection: Connection) {
        guard let head = connection.head else { return }
        let request = HTTPRequest(
            method: head.method, path: head.path, query: head.query, headers: head.headers, body: connection.body,
            remoteAddress: connection.address, version: head.version)
        let answer = engine.responder.answer(request)
        let close = !head.keepAlive || engine.draining.load(ordering: .relaxed)
        let http10KeepAlive = head.version == "HTTP/1.0" && head.keepAlive
        switch answer {
        case .now(let response):
            queue(response, on: connection, method: head.method, close: close, keepAliveForHTTP10: http10KeepAlive)
            flush(connection)
        case .later(let deferred):
            // The loop serves other connections meanwhile; `resume` sends the answer.
            connection.deferred = deferred
            connection.deferredClose = close
            connection.deferredKeepAliveForHTTP10 = http10KeepAlive
            connection.phase = .waiting(since: monotonicNanos())
            let descriptor = connection.descriptor
            deferred.attach { [weak self] in self?.streamReady(descriptor) }
        }
    }

    /// Answers a request the engine refuses itself, then closes (after a linger).
    func reject(_ connection: Connection, _ rejection: EngineRejection) {
        let response = HTTPResponse.text("\(rejection.status): \(rejection.message)\n", status: rejection.status)
        queue(
            response, on: connection, method: connection.head?.method ?? .get, close: true, keepAliveForHTTP10: false)
        flush(connection)
    }


    /// Called from any thread when a stream or a deferred answer of `descriptor` has
    /// something for the loop. Only the first of a burst writes to the wake pipe: a group
    /// of answers completed together costs one wake-up.
    func streamReady(_ descriptor: Int32) {
        let first = readyStreams.withLock { ready -> Bool in
            ready.append(descriptor)
            return ready.count == 1
        }
        if first { wake() }
    }

    /// Sends a deferred answer that has arrived, then serves pipelined requests.
    func resume(_ connection: Connection) {
        guard let deferred = connection.deferred, let response = deferred.take() else { return }
        connection.deferred = nil
        setInterest(connection, .input)
        queue(
            response, on: connection, method: connection.head?.method ?? .get, close: connection.deferredClose,
            keepAliveForHTTP10: connection.deferredKeepAliveForHTTP10)
        flush(connection)
        guard connections[connection.descriptor] === connection else { return }
        if case .idle = connection.phase, !connection.input.isEmpty { process(connection, now: monotonicNanos()) }
    }

    func finishRequest(_ connection: Connection, aborted: Bool) {
        guard connection.inFlight else { return }
        connection.inFlight = false
        connection.requestsServed += 1
        engine.inFlight.subtract(1, ordering: .relaxed)
        engine.completed.add(1, ordering: .relaxed)
        guard let log = engine.accessLog else { return }
        let duration = monotonicNanos() &- connection.requestStart
        if log.format == .json {
            var line = JSONLogLine(level: .info)
            line.add("remote", connection.address)
            line.add("method", connection.logMethod ?? "-")
            line.add("path", connection.logTarget ?? "-")
            line.add("status", connection.logStatus)
            line.add("bytes", connection.logBytes)
            line.add("duration_ms", thousandths: duration / 1000)
            if aborted { line.add("aborted", true) }
            if let note = connection.logNote { line.add("note", note) }
            log.write(bytes: line.finished)
            return
        }
        let line = AccessLogLine(
            address: connection.address, method: connection.logMethod ?? "-", target: connection.logTarget ?? "-",
            status: connection.logStatus, bytesSent: connection.logBytes,
            durationNanos: duration, aborted: aborted, note: connection.logNote)
        log.write(bytes: line.bytes)
    }
}
