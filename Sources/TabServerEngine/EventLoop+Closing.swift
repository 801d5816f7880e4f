// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// Closing: a lingering close after the last answer, and the close itself.
extension EventLoop {
    /// Lingering closes at most this long, and read at most this much.
    private static let lingerNanos: UInt64 = 2_000_000_000

    /// Shuts the write side and reads away what the client still sends, so the answer
    /// is not destroyed by a reset; the sweep closes it for good.
    func linger(_ connection: Connection) {
        connection.tls?.shutdown()
        Socket.shutdownWrite(connection.descriptor)
        connection.http1.linger(until: monotonicNanos() + Self.lingerNanos)
    }

    /// Closes the connection now (once: later calls do nothing); `aborted` marks a
    /// request in flight as abandoned in the access log.
    func closeNow(_ connection: Connection, aborted: Bool) {
        guard connections.removeValue(forKey: connection.descriptor) != nil else { return }
        connection.stream?.close()  // the app forgets its subscriber
        if case .waiting(_, let awaited) = connection.phase { awaited.pending.abandon() }
        abandonHTTP2Streams(connection)
        finishRequest(connection, aborted: aborted)
        close(connection.descriptor)
        if connection.counted {
            engine.openConnections.subtract(1, ordering: .relaxed)
            engine.release(address: connection.address)
        }
    }
}
