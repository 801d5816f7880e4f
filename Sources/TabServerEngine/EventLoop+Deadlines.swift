// SPDX-License-Identifier: Apache-2.0

import TabServerHTTP
import TabServerHTTP1

/// Deadlines, enforced by a sweep every 100 ms: head, body, send, idle and linger.
extension EventLoop {
    /// How often the loop sweeps.
    static let sweepNanos: UInt64 = 100_000_000

    /// Enforces every deadline; while draining first closes what need not be waited for
    /// (`closesWhenDraining`).
    func sweep(now: UInt64) {
        let draining = engine.draining
        for connection in connections.values {
            if draining && closesWhenDraining(connection) {
                closeNow(connection, aborted: false)
                continue
            }
            if case .http2 = connection.phase {
                // Its deadlines are per stream and its drain a GOAWAY.
                sweepHTTP2(connection, now: now, draining: draining)
                continue
            }
            switch connection.http1.expiry(now: now, limits: engine.http1Limits) {
            case nil: break
            case .close(let aborted): closeNow(connection, aborted: aborted)
            case .timeOut(let since, let method, let message):
                timeOut(connection, since: since, method: method, message)
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
