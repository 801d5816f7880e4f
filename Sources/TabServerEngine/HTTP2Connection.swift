// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP2

/// What the engine keeps for a connection that ALPN made HTTP/2: the nghttp2 session
/// (framing, HPACK, flow control), the streams it serves, and the state machine that
/// decides its deadlines and drain. Owned by its `Connection`, on the loop's thread.
final class HTTP2Connection {
    let session: HTTP2Session
    /// Open streams by id, from their HEADERS until nghttp2 closes them.
    var streams: [Int32: HTTP2Stream] = [:]
    /// Idle and blocked since when, the drain's GOAWAY, the sweep's decisions.
    var machine: HTTP2StateMachine

    init(session: HTTP2Session, now: UInt64) {
        self.session = session
        machine = HTTP2StateMachine(now: now)
    }

    /// The open streams as the state machine sees them.
    var streamStates: [HTTP2StateMachine.Stream] {
        streams.map { id, stream in
            let phase: HTTP2StateMachine.Stream.Phase =
                if stream.isReading {
                    .reading
                } else if stream.pending != nil {
                    .waiting(since: stream.waitingSince)
                } else {
                    .sending(
                        deadline: stream.deadline, unread: stream.body?.unread ?? 0,
                        appStream: stream.body?.stream != nil)
                }
            return HTTP2StateMachine.Stream(id: id, opened: stream.opened, phase: phase)
        }
    }
}
