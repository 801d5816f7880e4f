// SPDX-License-Identifier: Apache-2.0

import TabServerHTTP

/// Deadlines, enforced by a sweep every 100 ms: head, body, send, idle and linger.
extension EventLoop {
    /// How often the loop sweeps.
    static let sweepNanos: UInt64 = 100_000_000

    /// Enforces every deadline; while draining first closes what need not be waited for
    /// (`closesWhenDraining`).
    func sweep(now: UInt64) {
        let draining = engine.draining
        for connection in Array(connections.values) {
            if draining && closesWhenDraining(connection) {
                closeNow(connection, aborted: false)
                continue
            }
            switch connection.phase {
            case .idle(let since):
                let limit =
                    connection.requestsServed == 0
                    ? min(engine.idleTimeoutNanos, engine.headerTimeoutNanos) : engine.idleTimeoutNanos
                if now &- since > limit { closeNow(connection, aborted: false) }
            case .head(let since, _):
                if now &- since > engine.headerTimeoutNanos {
                    timeOut(connection, since: since, method: .get, "The request head took too long.")
                }
            case .body(let since, let head, _):
                let allowed =
                    engine.bodyTimeoutNanos + UInt64(connection.body.count) / engine.minimumRate * 1_000_000_000
                if now &- since > allowed {
                    timeOut(connection, since: since, method: head.method, "The request body arrived too slowly.")
                }
            case .waiting(let since, _):
                // The app never answered (a store that hangs): give up like a stuck send.
                if now &- since > engine.sendTimeoutNanos { closeNow(connection, aborted: true) }
            case .responding(let deadline, _, _):
                if now > deadline { closeNow(connection, aborted: true) }
            case .lingering(let until):
                if now > until { closeNow(connection, aborted: false) }
            case .streaming:
                break  // a stream never ends by itself (draining ends it)
            case .http2:
                // Its deadlines are per stream and its drain a GOAWAY.
                sweepHTTP2(connection, now: now, draining: draining)
            }
        }
    }

    /// A deadline passed while reading a request (its `method` once the head is known):
    /// 408, then close.
    private func timeOut(_ connection: Connection, since: UInt64, method: HTTPMethod, _ message: String) {
        engine.timedOut.add(1, ordering: .relaxed)
        if connection.request == nil { beginRequest(connection, method: nil, target: nil, now: since) }
        reject(connection, EngineRejection(status: .requestTimeout, message: message), method: method)
    }
}
