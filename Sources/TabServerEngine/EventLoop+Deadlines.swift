// SPDX-License-Identifier: Apache-2.0

#if canImport(Glibc)
    import Glibc
#endif

/// Deadlines, enforced by a sweep every 100 ms: head, body, send, idle and linger.
extension EventLoop {
    static let sweepNanos: UInt64 = 100_000_000


    /// Enforces every deadline; while draining also closes connections between requests.
    func sweep(now: UInt64) {
        let draining = engine.draining.load(ordering: .relaxed)
        for connection in Array(connections.values) {
            switch connection.phase {
            case .idle(let since):
                let limit =
                    connection.requestsServed == 0
                    ? min(engine.idleTimeoutNanos, engine.headerTimeoutNanos) : engine.idleTimeoutNanos
                if draining || now &- since > limit { closeNow(connection, aborted: false) }
            case .head(let since):
                if now &- since > engine.headerTimeoutNanos {
                    timeOut(connection, since: since, "The request head took too long.")
                }
            case .body(let since):
                let allowed =
                    engine.bodyTimeoutNanos + UInt64(connection.body.count) / engine.minimumRate * 1_000_000_000
                if now &- since > allowed { timeOut(connection, since: since, "The request body arrived too slowly.") }
            case .waiting(let since):
                // The app never answered (a store that hangs): give up like a stuck send.
                if now &- since > engine.sendTimeoutNanos { closeNow(connection, aborted: true) }
            case .responding:
                if now > connection.writeDeadline { closeNow(connection, aborted: true) }
            case .lingering(let until):
                // Draining does not wait for lingering clients: their answer is sent.
                if draining || now > until { closeNow(connection, aborted: false) }
            case .streaming:
                // Streams never end by themselves; draining ends them at once.
                if draining { closeNow(connection, aborted: false) }
            }
        }
    }

    /// A deadline passed while reading a request: 408, then close.
    private func timeOut(_ connection: Connection, since: UInt64, _ message: String) {
        engine.timedOut.add(1, ordering: .relaxed)
        if !connection.inFlight { beginRequest(connection, head: nil, now: since) }
        reject(connection, EngineRejection(status: .requestTimeout, message: message))
    }
}
