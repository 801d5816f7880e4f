// SPDX-License-Identifier: Apache-2.0
import TabServerCrypto
import TabServerHTTP
import TabServerHTTP1

/// One client connection, owned by the event loop that accepted it and touched only on
/// that loop's thread. It moves through phases: waiting for a request (idle), reading a
/// head, reading a body, waiting for an answer that comes later, writing a response,
/// streaming, and lingering before the close. What belongs to one phase is carried by
/// that phase's case, so it cannot be read or left behind in another; the connection
/// itself keeps only what outlives a phase: its buffers (reused from request to
/// request), the request in flight, and its epoll registration.
///
/// Its stored properties skip the runtime's exclusivity check (`@exclusivity(unchecked)`):
/// one thread touches them, and none is reached again while a change to it is under way
/// (the state machine, the buffer and the record hold no reference back). The check
/// would run in every access the loop makes per request, on the hottest path there is,
/// and a cached page would pay for it in every one (`bench/instructions.py` tells how
/// much).
final class Connection {
    enum Phase {
        /// Between requests; the idle timeout runs from `since`.
        case idle(since: UInt64)
        /// Reading a request head whose first byte arrived at `since`; picohttpparser has
        /// already scanned the first `scanned` bytes of `input` for its end.
        case head(since: UInt64, scanned: Int)
        /// Reading the body of `head` into `body`, begun at `since`; `chunked` decodes a
        /// chunked one as it arrives. Boxed (`indirect`): the head is large, and every
        /// other phase, the ones each request passes through, stays a few words to copy.
        indirect case body(since: UInt64, head: RequestHead, chunked: ChunkedDecoder?)
        /// The responder's task answers later, asked at `since`; pipelined
        /// input is buffered (up to the connection's memory) and served after the answer.
        case waiting(since: UInt64, answer: AwaitedAnswer)
        /// Writing a response, cut at `deadline`; nothing is read meanwhile. `closeAfter`:
        /// linger and close once it is sent; `stream`: the app's stream, when the answer
        /// is one (more of it follows what is being written).
        case responding(deadline: UInt64, closeAfter: Bool, stream: ResponseStream?)
        /// A streamed response (Server-Sent Events) with nothing left to write: waiting
        /// for the app to write more; input is read only to notice the client leaving.
        case streaming(ResponseStream)
        /// Answer sent and write side shut down; unread input is discarded until the
        /// client closes or `until` passes, so the answer is not lost to a reset.
        case lingering(until: UInt64)
        /// HTTP/2, once the TLS handshake chose `h2` (ALPN): nghttp2 frames the streams,
        /// and each stream carries its own state (`HTTP2Connection.streams`).
        case http2(HTTP2Connection)
    }

    /// An answer the responder gives later, and how to send it once it is there.
    struct AwaitedAnswer {
        let pending: PendingAnswer
        /// The request's method (a HEAD's answer has no body).
        let method: HTTPMethod
        /// Close after the answer: the request asked for it, the server is draining, or
        /// the client has closed its side meanwhile.
        var close: Bool
        let keepAliveForHTTP10: Bool
    }

    enum Interest {
        /// Readable or the peer closed (between requests, while reading one).
        case input
        /// Writable (a response is stuck on a full socket buffer).
        case output
        /// Nothing but errors (a deferred answer is awaited and the client has closed its
        /// side or sent as much as a connection may buffer).
        case none
        /// Both (HTTP/2 with its socket full: frames are still read, so nghttp2 sees a flood).
        case both
    }

    let descriptor: Int32
    let address: String
    /// Whether it counts against the connection budget (refused ones do not).
    let counted: Bool
    /// HTTP/1.1 on it: the phase, the input and the body being read.
    @exclusivity(unchecked) var http1: HTTP1StateMachine

    /// The response being written.
    @exclusivity(unchecked) var outbound = OutboundBuffer()
    /// The request in flight, as the access log records it: from its first byte parsed
    /// (or its refusal) until its answer is sent or abandoned; nil between requests.
    @exclusivity(unchecked) var request: AccessLogRecord?
    /// What the loop's epoll registration asks for.
    @exclusivity(unchecked) var interest: Interest = .input
    /// TLS on this connection when the listener serves HTTPS (its handshake runs while
    /// the connection is idle, under the header deadline); nil for plain HTTP.
    @exclusivity(unchecked) var tls: TLSSession?

    init(descriptor: Int32, address: String, counted: Bool, now: UInt64) {
        self.descriptor = descriptor
        self.address = address
        self.counted = counted
        http1 = HTTP1StateMachine(now: now)
    }

    /// Its phase (the state machine's).
    var phase: Phase { http1.phase }

    /// HTTP/2 on this connection (phase `http2`), nil for HTTP/1.1.
    var http2: HTTP2Connection? {
        if case .http2(let http2) = phase { http2 } else { nil }
    }

    /// The app's stream, while this connection sends one.
    var stream: ResponseStream? {
        switch phase {
        case .responding(_, _, let stream?), .streaming(let stream): stream
        default: nil
        }
    }
}
