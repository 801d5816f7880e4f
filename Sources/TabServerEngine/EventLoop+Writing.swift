// SPDX-License-Identifier: Apache-2.0
import CLinuxIO
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Writing answers: the head and body queued on the connection, sent without blocking
/// (`writev`, `sendfile`), and a stream's bytes pumped as the app writes them.
extension EventLoop {
    /// Buffers an idle connection keeps between requests; larger ones are freed, so
    /// 10,000 kept-alive connections do not each hold their largest page or body.
    private static let retainedBufferBytes = 16 * 1024

    func queue(
        _ response: HTTPResponse, on connection: Connection, method: HTTPMethod, close: Bool, keepAliveForHTTP10: Bool
    ) {
        connection.output.removeAll(keepingCapacity: true)
        connection.outputSent = 0
        var bodyFile: MemoryFile?
        if let cache = response.cache,
            let entry = cache.entry(orMake: { ResponseCache.Entry(prepare(response)) }),
            let prepared = entry.object as? PreparedHead
        {
            connection.output.append(contentsOf: prepared.bytes)
            bodyFile = prepared.bodyFile
        } else {
            connection.output.append(contentsOf: ResponseHead.stable(response, log: engine.errorLog))
        }
        var streamed = false
        if case .stream = response.body { streamed = true }
        ResponseHead.finish(
            date: date.current(), close: close || streamed, keepAliveForHTTP10: keepAliveForHTTP10,
            into: &connection.output)
        let sendsBody = method != .head && ResponseHead.hasBody(response.status)
        connection.sharedBody = nil
        connection.sharedSent = 0
        connection.fileBody = nil
        connection.fileSent = 0
        if sendsBody {
            switch response.body {
            case .empty: break
            case .bytes(let bytes): connection.output.append(contentsOf: bytes)
            case .shared(let shared):
                if let bodyFile { connection.fileBody = bodyFile } else { connection.sharedBody = shared }
            case .stream(let stream): connection.stream = stream
            }
        }
        var close = close
        if let stream = connection.stream {
            // Delimited by the end of the connection; the loop sends what the app writes.
            close = true
            let descriptor = connection.descriptor
            stream.attach { [weak self] in self?.streamReady(descriptor) }
        }
        connection.closeAfterWrite = close
        connection.logStatus = response.status.code
        connection.logBytes = sendsBody ? response.body.count : 0
        connection.logNote = response.accessLogNote
        let now = monotonicNanos()
        let total = UInt64(
            connection.output.count + (connection.sharedBody?.count ?? 0) + (connection.fileBody?.count ?? 0))
        connection.writeDeadline = now + engine.sendTimeoutNanos + total / engine.minimumRate * 1_000_000_000
        connection.phase = .responding(since: now)
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

    /// Sends what it can of the head and body without blocking: bytes in memory with one
    /// `writev`, a memory file with `sendfile` after its head (sent with MSG_MORE so the
    /// head and the first body bytes still leave in one segment).
    private func transmit(_ connection: Connection) -> Int {
        if let file = connection.fileBody {
            if connection.outputSent < connection.output.count {
                return connection.output.withUnsafeBytes { head in
                    send(
                        connection.descriptor, head.baseAddress! + connection.outputSent,
                        head.count - connection.outputSent, Int32(MSG_NOSIGNAL | MSG_MORE))
                }
            }
            return tabserver_sendfile(
                connection.descriptor, file.descriptor, Int64(connection.fileSent), file.count - connection.fileSent)
        }
        return connection.output.withUnsafeBytes { head in
            withUnsafeTemporaryAllocation(of: iovec.self, capacity: 2) { vectors in
                var count = 0
                if connection.outputSent < head.count {
                    vectors[0] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: head.baseAddress! + connection.outputSent),
                        iov_len: head.count - connection.outputSent)
                    count = 1
                }
                if let shared = connection.sharedBody, connection.sharedSent < shared.count {
                    vectors[count] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: shared.baseAddress + connection.sharedSent),
                        iov_len: shared.count - connection.sharedSent)
                    count += 1
                }
                return writev(connection.descriptor, vectors.baseAddress, Int32(count))
            }
        }
    }

    /// Writes what it can without blocking; finishes the request when all is sent.
    func flush(_ connection: Connection) {
        while connection.hasPendingOutput {
            let written = transmit(connection)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    setInterest(connection, .output)
                    return
                }
                closeNow(connection, aborted: true)
                return
            }
            var remaining = written
            let headLeft = connection.output.count - connection.outputSent
            let fromHead = min(remaining, headLeft)
            connection.outputSent += fromHead
            remaining -= fromHead
            if connection.fileBody != nil {
                connection.fileSent += remaining
            } else {
                connection.sharedSent += remaining
            }
        }
        setInterest(connection, .input)
        if let stream = connection.stream {
            // Everything written so far is sent; wait for the app to write more.
            connection.phase = .streaming
            if stream.isClosed { pump(connection) }
            return
        }
        finishRequest(connection, aborted: false)
        if connection.output.capacity > Self.retainedBufferBytes { connection.output = [] }
        if connection.body.capacity > Self.retainedBufferBytes { connection.body = [] }
        if connection.input.isEmpty && connection.input.capacity > Self.retainedBufferBytes { connection.input = [] }
        connection.sharedBody = nil
        connection.fileBody = nil
        if connection.closeAfterWrite {
            linger(connection)
        } else {
            // Pipelined requests already in `input` are served by the caller's loop.
            connection.phase = .idle(since: monotonicNanos())
        }
    }


    /// Moves what the app wrote into the connection's output and sends it; closes the
    /// connection when the stream has ended and everything is sent.
    func pump(_ connection: Connection) {
        guard let stream = connection.stream else { return }
        let (bytes, closed) = stream.take()
        if !bytes.isEmpty {
            if !connection.hasPendingOutput {
                connection.output.removeAll(keepingCapacity: true)
                connection.outputSent = 0
                let now = monotonicNanos()
                connection.writeDeadline = now + engine.sendTimeoutNanos
                connection.phase = .responding(since: now)
            }
            connection.output.append(contentsOf: bytes)
            connection.logBytes += bytes.count
            flush(connection)
        }
        if closed, connections[connection.descriptor] === connection, !connection.hasPendingOutput {
            connection.stream = nil
            finishRequest(connection, aborted: false)
            linger(connection)
        }
    }
}
