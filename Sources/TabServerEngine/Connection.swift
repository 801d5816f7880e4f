// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// One client connection, owned by the event loop that accepted it and touched only on
/// that loop's thread. It moves through phases: waiting for a request (idle), reading a
/// head, reading a body, writing a response, and lingering before the close.
final class Connection {
    enum Phase {
        /// Between requests; the idle timeout runs from `since`.
        case idle(since: UInt64)
        /// Reading a request head whose first byte arrived at `since`.
        case head(since: UInt64)
        /// Reading the body of `head`, begun at `since`.
        case body(since: UInt64)
        /// The responder answers later (`HTTPAnswer.later`), asked at `since`; pipelined
        /// input is buffered (up to the connection's memory) and served after the answer.
        case waiting(since: UInt64)
        /// Writing a response; nothing is read meanwhile.
        case responding(since: UInt64)
        /// A streamed response (Server-Sent Events) with nothing left to write: waiting
        /// for the app to write more; input is read only to notice the client leaving.
        case streaming
        /// Answer sent and write side shut down; unread input is discarded until the
        /// client closes or `until` passes, so the answer is not lost to a reset.
        case lingering(until: UInt64)
    }

    let descriptor: Int32
    let address: String
    /// Whether it counts against the connection budget (refused ones do not).
    let counted: Bool
    var phase: Phase

    /// Received bytes not yet consumed.
    var input: [UInt8] = []
    /// How much of `input` picohttpparser has already scanned for the current head.
    var scanned = 0

    // The request being served.
    var head: RequestHead?
    var body: [UInt8] = []
    var chunked: ChunkedDecoder?
    var requestStart: UInt64 = 0
    var inFlight = false
    /// Requests answered on this connection: before the first, an idle connection gets
    /// only the header deadline (a client that connects and sends nothing holds no slot
    /// for the whole keep-alive timeout).
    var requestsServed = 0

    // The response being written: `output`, then `sharedBody` (a static file, unsent bytes
    // referenced, not copied) or `fileBody` (a large static file, sent with sendfile).
    var output: [UInt8] = []
    var outputSent = 0
    var sharedBody: SharedBytes?
    var sharedSent = 0
    var fileBody: MemoryFile?
    var fileSent = 0
    /// The app's stream while this connection sends one.
    var stream: ResponseStream?
    /// The answer this connection waits for, and how to send it once it is there.
    var deferred: DeferredResponse?
    var deferredClose = false
    var deferredKeepAliveForHTTP10 = false
    var writeDeadline: UInt64 = 0
    var closeAfterWrite = false
    /// What the loop's epoll registration asks for.
    var interest: Interest = .input

    enum Interest {
        /// Readable or the peer closed (between requests, while reading one).
        case input
        /// Writable (a response is stuck on a full socket buffer).
        case output
        /// Nothing but errors (a deferred answer is awaited and the client has closed its
        /// side or sent as much as a connection may buffer).
        case none
    }

    // For the access log.
    var logMethod: String?
    var logTarget: String?
    var logStatus = 0
    var logBytes = 0
    var logNote: String?

    init(descriptor: Int32, address: String, counted: Bool, now: UInt64) {
        self.descriptor = descriptor
        self.address = address
        self.counted = counted
        phase = .idle(since: now)
    }

    /// Whether a response is still (partly) unsent.
    var hasPendingOutput: Bool {
        outputSent < output.count || (sharedBody.map { sharedSent < $0.count } ?? false)
            || (fileBody.map { fileSent < $0.count } ?? false)
    }
}
