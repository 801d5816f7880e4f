// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP2

/// What the engine keeps for a connection that ALPN made HTTP/2: the nghttp2 session
/// (framing, HPACK, flow control), the streams it serves, and the times the sweep
/// judges the connection by. Owned by its `Connection`, on the loop's thread.
final class HTTP2Connection {
    let session: HTTP2Session
    /// Open streams by id, from their HEADERS until nghttp2 closes them.
    var streams: [Int32: HTTP2Stream] = [:]
    /// Since when no stream is open (the idle deadline runs from it).
    var idleSince: UInt64
    /// Since when the socket has refused the bytes nghttp2 gave (nil while it takes them):
    /// past the send timeout the connection is cut.
    var blockedSince: UInt64?
    /// A drain's GOAWAY has been queued.
    var goingAway = false

    init(session: HTTP2Session, now: UInt64) {
        self.session = session
        idleSince = now
    }
}
