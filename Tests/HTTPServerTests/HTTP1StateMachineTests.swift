import TabServerHTTP1
// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerEngine
@testable import TabServerHTTP

/// HTTP/1.1 on a connection without a socket: bytes and times go in, what the loop must
/// do comes out.
@Suite("HTTP/1.1 connection state machine")
struct HTTP1StateMachineTests {
    static let limits = HTTP1StateMachine.Limits(
        memoryPerConnection: 1024, maxBodySize: 100, headerTimeout: 10_000, bodyTimeout: 20_000,
        idleTimeout: 50_000, sendTimeout: 30_000, minimumRate: 10, answersFromHead: false)
    let fields = HeadFields()

    /// What `step` answered, in words the expectations compare.
    enum Seen: Equatable {
        case wait
        case head(path: String, next: String)
        case body(path: String, body: String)
        case reject(status: Int, method: String)
    }

    func step(_ machine: inout HTTP1StateMachine, now: UInt64 = 0, limits: HTTP1StateMachine.Limits = limits)
        -> Seen
    {
        switch machine.step(now: now, limits: limits, fields: fields) {
        case .wait: return .wait
        case .head(let head, let next):
            let word =
                switch next {
                case .answerFromHead: "answer from head"
                case .dispatch: "dispatch"
                case .sendContinue: "send 100 Continue"
                case .readBody: "read body"
                case .reject(let rejection): "reject \(rejection.status.code)"
                }
            return .head(path: head.path, next: word)
        case .body(let head): return .body(path: head.path, body: String(decoding: machine.body, as: UTF8.self))
        case .reject(let rejection, let method): return .reject(status: rejection.status.code, method: "\(method)")
        }
    }

    @discardableResult
    func receive(
        _ machine: inout HTTP1StateMachine, _ text: String, now: UInt64 = 0, limits: HTTP1StateMachine.Limits = limits
    ) -> HTTP1StateMachine.Arrival {
        Array(text.utf8).withUnsafeBytes { machine.receive($0, now: now, limits: limits) }
    }

    /// The answer to the current request is queued, then all sent.
    func answer(_ machine: inout HTTP1StateMachine, close: Bool = false, now: UInt64 = 0)
        -> HTTP1StateMachine.AfterSend
    {
        machine.writing(deadline: now + 1000, closeAfter: close, stream: nil)
        return machine.sent(now: now)
    }

    @Test("a request without a body is dispatched from its head; once answered, the connection waits for the next")
    func simpleRequest() {
        var machine = HTTP1StateMachine(now: 0)
        #expect(receive(&machine, "GET /tabs/a HTTP/1.1\r\nHost: x\r\n\r\n", now: 5) == .parse)
        #expect(step(&machine) == .head(path: "/tabs/a", next: "dispatch"))
        #expect(machine.requestsServed == 0)
        guard case .next = answer(&machine, now: 9) else {
            Issue.record("not ready for the next request")
            return
        }
        guard case .idle(let since) = machine.phase else {
            Issue.record("\(machine.phase)")
            return
        }
        #expect(since == 9)
        #expect(machine.requestsServed == 1)
        #expect(step(&machine) == .wait)
    }

    @Test("a head in pieces waits, remembering how far it was scanned; blank lines before it are skipped")
    func headInPieces() {
        var machine = HTTP1StateMachine(now: 0)
        let text = "\r\n\r\nGET /p HTTP/1.1\r\nHost: x\r\n\r\n"
        for (index, character) in text.enumerated() {
            receive(&machine, String(character), now: 7)
            let seen = step(&machine)
            if index < text.count - 1 {
                #expect(seen == .wait, "after \(index + 1) bytes")
            } else {
                #expect(seen == .head(path: "/p", next: "dispatch"))
            }
        }
        #expect(machine.input.isEmpty)
    }

    @Test("a body framed by length is read across pieces; a pipelined request behind it stays in the input")
    func lengthBody() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "POST /select HTTP/1.1\r\nHost: x\r\nContent-Length: 9\r\n\r\ntab=")
        #expect(step(&machine) == .head(path: "/select", next: "read body"))
        #expect(step(&machine) == .wait)
        receive(&machine, "musicGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(step(&machine) == .body(path: "/select", body: "tab=music"))
        #expect(String(decoding: machine.input, as: UTF8.self).hasPrefix("GET /next"))
        _ = answer(&machine)
        #expect(step(&machine) == .head(path: "/next", next: "dispatch"))
        #expect(machine.body.isEmpty, "a new request starts with an empty body")
    }

    @Test("a chunked body is decoded; one that grows past the limit is refused with 413")
    func chunkedBody() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n4\r\nab")
        #expect(step(&machine) == .head(path: "/a", next: "read body"))
        #expect(step(&machine) == .wait)
        receive(&machine, "cd\r\n0\r\n\r\n")
        #expect(step(&machine) == .body(path: "/a", body: "abcd"))

        var large = HTTP1StateMachine(now: 0)
        receive(&large, "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
        #expect(step(&large) == .head(path: "/a", next: "read body"))
        receive(&large, "65\r\n" + String(repeating: "x", count: 101) + "\r\n")
        #expect(step(&large) == .reject(status: 413, method: "POST"))

        var garbled = HTTP1StateMachine(now: 0)
        receive(&garbled, "POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
        _ = step(&garbled)
        #expect(step(&garbled) == .reject(status: 400, method: "POST"))
    }

    @Test("the head alone refuses a body too large or on a method without one, before a byte of it is read")
    func bodyRefusedFromHead() {
        var large = HTTP1StateMachine(now: 0)
        receive(&large, "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 101\r\n\r\n")
        #expect(step(&large) == .head(path: "/a", next: "reject 413"))
        var get = HTTP1StateMachine(now: 0)
        receive(&get, "GET /a HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        #expect(step(&get) == .head(path: "/a", next: "reject 400"))
    }

    @Test("Expect: 100-continue asks for the interim answer before the body")
    func expectContinue() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "PUT /a HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n")
        #expect(step(&machine) == .head(path: "/a", next: "send 100 Continue"))
        receive(&machine, "ok")
        #expect(step(&machine) == .body(path: "/a", body: "ok"))
    }

    @Test("a malformed head is refused with 400 as a GET; one larger than a connection's memory with 431")
    func malformedHead() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "GET /a HTTP/1.1\r\nHost : x\r\n\r\n")
        #expect(step(&machine) == .reject(status: 400, method: "GET"))
        var huge = HTTP1StateMachine(now: 0)
        receive(&huge, "GET /a HTTP/1.1\r\nX-Big: " + String(repeating: "y", count: 2000))
        guard case .reject(let status, _) = step(&huge) else {
            Issue.record("not refused")
            return
        }
        #expect(status == 431)
    }

    @Test("with a head responder every head is answered from itself, a body never read")
    func answersFromHead() {
        var limits = Self.limits
        limits.answersFromHead = true
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\nab", limits: limits)
        #expect(step(&machine, limits: limits) == .head(path: "/a", next: "answer from head"))
        #expect(String(decoding: machine.input, as: UTF8.self) == "ab", "the body is left unread")
    }

    @Test("bytes behind an awaited answer are held, reading pauses past the memory allowed, a close still gets it")
    func awaited() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = step(&machine)
        machine.await(
            Connection.AwaitedAnswer(pending: PendingAnswer(), method: .get, close: false, keepAliveForHTTP10: false),
            now: 3)
        #expect(receive(&machine, "GET /b HTTP/1.1\r\n") == .hold(full: false))
        #expect(receive(&machine, String(repeating: "z", count: 1024 - 18)) == .hold(full: false))
        #expect(receive(&machine, "z") == .hold(full: true), "the memory a connection may buffer is reached")
        #expect(step(&machine) == .wait, "nothing is parsed while an answer is awaited")
        #expect(machine.inputEnded() == .answerThenClose)
        guard case .waiting(_, let answer) = machine.phase else {
            Issue.record("\(machine.phase)")
            return
        }
        #expect(answer.close)
        #expect(HTTP1StateMachine(now: 0).closesWhenDraining)
        var idle = HTTP1StateMachine(now: 0)
        #expect(idle.inputEnded() == .close)
    }

    @Test("after an answer that closes, the connection lingers and drops what still arrives")
    func lingers() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "GET /a HTTP/1.0\r\n\r\n")
        _ = step(&machine)
        guard case .linger = answer(&machine, close: true) else {
            Issue.record("no linger")
            return
        }
        machine.linger(until: 100)
        #expect(receive(&machine, "more") == .discard)
        #expect(machine.input.isEmpty)
        #expect(machine.expiry(now: 100, limits: Self.limits) == nil)
        #expect(machine.expiry(now: 101, limits: Self.limits) == .close(aborted: false))
    }

    @Test("an app's stream waits for more once its bytes are sent, and reads nothing while writing")
    func stream() {
        var machine = HTTP1StateMachine(now: 0)
        receive(&machine, "GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = step(&machine)
        machine.writing(deadline: 10, closeAfter: true, stream: ResponseStream())
        #expect(!machine.reads)
        guard case .stream = machine.sent(now: 1) else {
            Issue.record("\(machine.phase)")
            return
        }
        #expect(machine.reads)
        #expect(receive(&machine, "x") == .discard)
        #expect(machine.expiry(now: .max, limits: Self.limits) == nil, "a stream never ends by itself")
        #expect(machine.closesWhenDraining)
    }

    @Test("deadlines: the first wait is the header timeout, later ones the idle timeout; slow heads and bodies get 408")
    func deadlines() {
        let limits = Self.limits
        var machine = HTTP1StateMachine(now: 0)
        #expect(machine.expiry(now: 10_000, limits: limits) == nil)
        #expect(machine.expiry(now: 10_001, limits: limits) == .close(aborted: false), "no request yet: header timeout")

        receive(&machine, "GET /a HTTP/1.1\r\n", now: 100)
        #expect(step(&machine, now: 100) == .wait)
        #expect(!machine.closesWhenDraining, "a request being read finishes")
        #expect(machine.expiry(now: 10_100, limits: limits) == nil)
        #expect(
            machine.expiry(now: 10_101, limits: limits)
                == .timeOut(since: 100, method: .get, message: "The request head took too long."))

        receive(&machine, "Host: x\r\n\r\n")
        _ = step(&machine)
        _ = answer(&machine, now: 200)
        #expect(machine.expiry(now: 200 + 50_000, limits: limits) == nil, "after a request: the idle timeout")
        #expect(machine.expiry(now: 200 + 50_001, limits: limits) == .close(aborted: false))

        var slow = HTTP1StateMachine(now: 0)
        receive(&slow, "POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 50\r\n\r\n" + String(repeating: "b", count: 20))
        _ = step(&slow, now: 0)
        _ = step(&slow, now: 0)
        // 20 bytes at 10 bytes a second buy two more seconds on top of the body timeout.
        #expect(slow.expiry(now: 20_000 + 2_000_000_000, limits: limits) == nil)
        #expect(
            slow.expiry(now: 20_001 + 2_000_000_000, limits: limits)
                == .timeOut(since: 0, method: .post, message: "The request body arrived too slowly."))

        var waiting = HTTP1StateMachine(now: 0)
        waiting.await(
            Connection.AwaitedAnswer(pending: PendingAnswer(), method: .get, close: false, keepAliveForHTTP10: false),
            now: 5)
        #expect(waiting.expiry(now: 30_005, limits: limits) == nil)
        #expect(waiting.expiry(now: 30_006, limits: limits) == .close(aborted: true), "an answer that never comes")

        var writing = HTTP1StateMachine(now: 0)
        writing.writing(deadline: 40, closeAfter: false, stream: nil)
        #expect(writing.expiry(now: 40, limits: limits) == nil)
        #expect(writing.expiry(now: 41, limits: limits) == .close(aborted: true), "a send that never finishes")
    }
}

extension HTTP1StateMachineTests {
    /// The head of `text`, parsed as the engine parses it.
    static func head(_ text: String) -> RequestHead? {
        var machine = HTTP1StateMachine(now: 0)
        _ = Array(text.utf8).withUnsafeBytes { machine.receive($0, now: 0, limits: limits) }
        guard case .head(let head, _) = machine.step(now: 0, limits: limits, fields: HeadFields()) else { return nil }
        return head
    }
}
