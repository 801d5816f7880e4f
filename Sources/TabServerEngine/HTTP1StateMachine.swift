// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerHTTP1

/// HTTP/1.1 on one connection, as a state machine without I/O: the event loop feeds it
/// what happened (bytes arrived, the client closed its side, an answer was queued or
/// sent, time passed) and does what it answers (dispatch a request, refuse one, send
/// `100 Continue`, linger, close). It owns the connection's phase and its input and body
/// buffers; the loop owns the socket, TLS and the outbound buffer. The tests drive it
/// with bytes alone (`HTTP1StateMachineTests`).
struct HTTP1StateMachine {
    typealias Phase = Connection.Phase

    /// The limits it enforces, in the units it compares against.
    struct Limits {
        /// Most bytes one connection buffers (a head, pipelined input behind an answer).
        var memoryPerConnection: Int
        var maxBodySize: Int
        var headerTimeout: UInt64
        var bodyTimeout: UInt64
        var idleTimeout: UInt64
        var sendTimeout: UInt64
        /// Bytes per second a body must at least arrive at.
        var minimumRate: UInt64
        /// Requests are answered from their heads alone (`HeadResponder`); bodies are
        /// never read.
        var answersFromHead: Bool
    }

    /// What the loop does with bytes that arrived.
    enum Arrival: Equatable {
        /// Parse them (`step`).
        case parse
        /// Nothing: they are dropped (a lingering close, a stream's client).
        case discard
        /// Keep them behind the awaited answer; `full`: stop reading until it is sent.
        case hold(full: Bool)
    }

    /// What the loop does when the client has closed its side.
    enum Ending: Equatable {
        /// Send the awaited answer, then close; read nothing more.
        case answerThenClose
        /// Close now; `aborted`: a request was in flight.
        case close
    }

    /// What the loop does next with the input (`step`).
    enum Step {
        /// Nothing complete: wait for more bytes (or for the answer in progress).
        case wait
        /// A head arrived, so a request begins; then `next`.
        case head(RequestHead, next: AfterHead)
        /// The body of `head`'s request is complete (in `body`): dispatch it.
        case body(RequestHead)
        /// Refuse the request (its method: a HEAD's refusal has no body) and close.
        case reject(EngineRejection, method: HTTPMethod)
    }

    /// What follows a head.
    enum AfterHead {
        /// Answer from the head alone (`Limits.answersFromHead`).
        case answerFromHead
        /// No body: dispatch now.
        case dispatch
        /// Send `100 Continue`, then read the body.
        case sendContinue
        /// Read the body.
        case readBody
        /// The head alone refuses the body (too large, a method without one): refuse and close.
        case reject(EngineRejection)
    }

    /// What the loop does when a deadline has passed (`expiry`).
    enum Expiry: Equatable {
        /// Close; `aborted`: a request was in flight.
        case close(aborted: Bool)
        /// Answer 408 and close: the request (its `method` once known) took too long.
        case timeOut(since: UInt64, method: HTTPMethod, message: String)
    }

    /// What follows an answer all sent (`sent`).
    enum AfterSend {
        /// The request is done; serve the next one.
        case next
        /// The request is done; linger, then close.
        case linger
        /// An app's stream: wait for it to write more.
        case stream(ResponseStream)
        /// No HTTP/1.1 answer was being written.
        case nothing
    }

    private(set) var phase: Phase
    /// Received bytes not yet consumed.
    var input: [UInt8] = []
    /// The body of the request being read or served (its capacity kept for the next).
    var body: [UInt8] = []
    /// Requests answered on this connection: before the first, an idle connection gets
    /// only the header deadline (a client that connects and sends nothing holds no slot
    /// for the whole keep-alive timeout).
    private(set) var requestsServed = 0

    init(now: UInt64) {
        phase = .idle(since: now)
    }

    /// Whether a drain closes the connection at once: between requests, with its answer
    /// already sent (lingering: the client has it), or holding a stream (which never ends
    /// by itself). A request being read, awaited or written is left to finish; HTTP/2
    /// is sent a GOAWAY and finishes its streams.
    var closesWhenDraining: Bool {
        switch phase {
        case .idle, .lingering, .streaming: true
        case .head, .body, .waiting, .responding, .http2: false
        }
    }

    /// Whether bytes are read from the socket at all (not while writing an answer).
    var reads: Bool {
        if case .responding = phase { false } else { true }
    }

    // MARK: Events

    /// Bytes arrived at `now`.
    mutating func receive(_ bytes: UnsafeRawBufferPointer, now: UInt64, limits: Limits) -> Arrival {
        switch phase {
        case .lingering, .streaming, .responding, .http2:
            return .discard
        case .waiting:
            // Pipelined bytes behind a pending answer wait for it; past the memory allowed
            // a connection, reading pauses until the answer is sent.
            input.append(contentsOf: bytes)
            return .hold(full: input.count >= limits.memoryPerConnection)
        case .idle:
            phase = .head(since: now, scanned: 0)
            input.append(contentsOf: bytes)
            return .parse
        case .head, .body:
            input.append(contentsOf: bytes)
            return .parse
        }
    }

    /// The client closed its side.
    mutating func inputEnded() -> Ending {
        guard case .waiting(let since, var answer) = phase else { return .close }
        // It sent its request and closed: it still gets the answer.
        answer.close = true
        phase = .waiting(since: since, answer: answer)
        return .answerThenClose
    }

    /// The next thing to do with the input at `now`; `fields` is picohttpparser's scratch.
    mutating func step(now: UInt64, limits: Limits, fields: HeadFields) -> Step {
        switch phase {
        case .idle:
            guard !input.isEmpty else { return .wait }
            phase = .head(since: now, scanned: 0)
            return readHead(since: now, scanned: 0, limits: limits, fields: fields)
        case .head(let since, let scanned):
            return readHead(since: since, scanned: scanned, limits: limits, fields: fields)
        case .body(let since, let head, let chunked):
            return readBody(since: since, head: head, chunked: chunked, limits: limits)
        case .waiting, .responding, .lingering, .streaming, .http2:
            return .wait  // nothing to parse now; HTTP/2's frames go to nghttp2
        }
    }

    /// The answer will come later (`answer.pending`), asked at `now`.
    mutating func await(_ answer: Connection.AwaitedAnswer, now: UInt64) {
        phase = .waiting(since: now, answer: answer)
    }

    /// An answer (or, for an app's stream, its next bytes) is queued; it must be out by
    /// `deadline`.
    mutating func writing(deadline: UInt64, closeAfter: Bool, stream: ResponseStream?) {
        phase = .responding(deadline: deadline, closeAfter: closeAfter, stream: stream)
    }

    /// What was queued is all sent, at `now`.
    mutating func sent(now: UInt64) -> AfterSend {
        switch phase {
        case .responding(_, _, let stream?), .streaming(let stream):
            phase = .streaming(stream)
            return .stream(stream)
        case .responding(_, let closeAfter, nil):
            requestsServed += 1
            if closeAfter { return .linger }
            // Pipelined requests already in `input` are served by the next `step`.
            phase = .idle(since: now)
            return .next
        case .idle, .head, .body, .waiting, .lingering, .http2:
            return .nothing
        }
    }

    /// An app's stream has ended and everything is sent.
    mutating func streamEnded() {
        requestsServed += 1
    }

    /// An HTTP/2 stream ended on this connection (it counts for the idle deadline).
    mutating func servedOverHTTP2() {
        requestsServed += 1
    }

    /// The write side is shut: what still arrives is dropped until `until`.
    mutating func linger(until: UInt64) {
        input = []
        phase = .lingering(until: until)
    }

    /// ALPN chose `h2`: nghttp2 frames the connection from now on.
    mutating func upgrade(to http2: HTTP2Connection) {
        phase = .http2(http2)
    }

    /// Which deadline, if any, has passed at `now` (HTTP/2's are per stream: nil here).
    func expiry(now: UInt64, limits: Limits) -> Expiry? {
        switch phase {
        case .idle(let since):
            let limit = requestsServed == 0 ? min(limits.idleTimeout, limits.headerTimeout) : limits.idleTimeout
            return now &- since > limit ? .close(aborted: false) : nil
        case .head(let since, _):
            guard now &- since > limits.headerTimeout else { return nil }
            return .timeOut(since: since, method: .get, message: "The request head took too long.")
        case .body(let since, let head, _):
            let allowed = limits.bodyTimeout + UInt64(body.count) / limits.minimumRate * 1_000_000_000
            guard now &- since > allowed else { return nil }
            return .timeOut(since: since, method: head.method, message: "The request body arrived too slowly.")
        case .waiting(let since, _):
            // The app never answered (a store that hangs): given up like a stuck send.
            return now &- since > limits.sendTimeout ? .close(aborted: true) : nil
        case .responding(let deadline, _, _):
            return now > deadline ? .close(aborted: true) : nil
        case .lingering(let until):
            return now > until ? .close(aborted: false) : nil
        case .streaming, .http2:
            return nil  // a stream never ends by itself (draining ends it)
        }
    }

    // MARK: Reading

    /// Parses the head (`scanned` bytes of the input were scanned before).
    private mutating func readHead(since: UInt64, scanned: Int, limits: Limits, fields: HeadFields) -> Step {
        // RFC 9112 §2.2: empty lines before a request line are ignored (some clients send
        // a CRLF after a POST body).
        if scanned == 0 {
            let blank = input.prefix { $0 == 13 || $0 == 10 }.count
            if blank > 0 {
                input.removeFirst(blank)
                if input.isEmpty { return .wait }
            }
        }
        let outcome = input.withUnsafeBytes { bytes in
            RequestHead.parse(
                bytes, previousLength: scanned, maximumLength: limits.memoryPerConnection, fields: fields)
        }
        switch consume outcome {
        case .incomplete:
            phase = .head(since: since, scanned: input.count)
            return .wait
        case .rejected(let rejection):
            return .reject(rejection, method: .get)
        case .complete(let head, let length):
            input.removeFirst(length)
            body.removeAll(keepingCapacity: true)
            if limits.answersFromHead { return .head(head, next: .answerFromHead) }
            if let rejection = Self.checkBody(of: head, limits: limits) { return .head(head, next: .reject(rejection)) }
            if head.framing == .none { return .head(head, next: .dispatch) }
            phase = .body(since: since, head: head, chunked: head.framing == .chunked ? ChunkedDecoder() : nil)
            return .head(head, next: head.expectsContinue ? .sendContinue : .readBody)
        }
    }

    /// What the head alone says about its body: refused before a byte of it is read.
    private static func checkBody(of head: RequestHead, limits: Limits) -> EngineRejection? {
        guard head.framing != .none else { return nil }
        if !head.method.allowsBody {
            return EngineRejection(status: .badRequest, message: "A \(head.method) request cannot carry a body here.")
        }
        if case .length(let length) = head.framing, length > limits.maxBodySize {
            return EngineRejection(
                status: .contentTooLarge, message: "The request body is larger than \(limits.maxBodySize) bytes.")
        }
        return nil
    }

    /// Moves body bytes of `head`'s request from the input.
    private mutating func readBody(since: UInt64, head: RequestHead, chunked: ChunkedDecoder?, limits: Limits)
        -> Step
    {
        switch head.framing {
        case .none:
            return .body(head)
        case .length(let length):
            let take = min(length - body.count, input.count)
            body.append(contentsOf: input[0..<take])
            input.removeFirst(take)
            return body.count == length ? .body(head) : .wait
        case .chunked:
            var decoder = chunked ?? ChunkedDecoder()
            let consumed: Int
            do {
                consumed = try Self.decode(input, with: &decoder, into: &body)
            } catch {
                return .reject(error, method: head.method)
            }
            phase = .body(since: since, head: head, chunked: decoder)
            input.removeFirst(consumed)
            if body.count > limits.maxBodySize {
                return .reject(
                    EngineRejection(
                        status: .contentTooLarge,
                        message: "The request body is larger than \(limits.maxBodySize) bytes."),
                    method: head.method)
            }
            return decoder.isDone ? .body(head) : .wait
        }
    }

    private static func decode(_ input: [UInt8], with decoder: inout ChunkedDecoder, into body: inout [UInt8])
        throws(EngineRejection) -> Int
    {
        var result: Result<Int, EngineRejection> = .success(0)
        input.withUnsafeBytes { bytes in
            do throws(EngineRejection) {
                result = .success(try decoder.decode(bytes, into: &body))
            } catch {
                result = .failure(error)
            }
        }
        return try result.get()
    }
}
