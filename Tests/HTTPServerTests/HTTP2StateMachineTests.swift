// SPDX-License-Identifier: Apache-2.0
import Testing

@testable import TabServerEngine

/// HTTP/2's deadlines and drain without a socket: times and stream states go in, what
/// the loop must do comes out.
@Suite("HTTP/2 connection state machine")
struct HTTP2StateMachineTests {
    typealias Machine = HTTP2StateMachine
    typealias Stream = HTTP2StateMachine.Stream
    static let limits = Machine.Limits(headerTimeout: 100, bodyTimeout: 200, idleTimeout: 1000, sendTimeout: 50)

    func sweep(
        _ machine: inout Machine, now: UInt64, _ streams: [Stream] = [], served: Bool = true, draining: Bool = false
    ) -> [Machine.Action] {
        machine.sweep(now: now, streams: streams, served: served, draining: draining, limits: Self.limits)
    }

    @Test("a request read too slowly gets 408 once the header and body timeouts have passed")
    func slowRequest() {
        var machine = Machine(now: 0)
        let reading = Stream(id: 1, opened: 10, phase: .reading)
        #expect(sweep(&machine, now: 310, [reading]).isEmpty)
        #expect(sweep(&machine, now: 311, [reading]) == [.timeOut(1)])
    }

    @Test("an answer that never comes is abandoned after the send timeout")
    func lateAnswer() {
        var machine = Machine(now: 0)
        let waiting = Stream(id: 3, opened: 0, phase: .waiting(since: 20))
        #expect(sweep(&machine, now: 70, [waiting]).isEmpty)
        #expect(sweep(&machine, now: 71, [waiting]) == [.abandon(3)])
    }

    @Test(
        "past a send deadline: a shut window closes the connection; an answer all out is let go; an app's stream waits")
    func sendDeadline() {
        var machine = Machine(now: 0)
        let shut = Stream(id: 5, opened: 0, phase: .sending(deadline: 40, unread: 9, appStream: false))
        let done = Stream(id: 7, opened: 0, phase: .sending(deadline: 40, unread: 0, appStream: false))
        let app = Stream(id: 9, opened: 0, phase: .sending(deadline: 40, unread: 0, appStream: true))
        let unhurried = Stream(id: 11, opened: 0, phase: .sending(deadline: nil, unread: 3, appStream: false))
        #expect(sweep(&machine, now: 40, [shut, done, app]).isEmpty)
        #expect(
            sweep(&machine, now: 41, [done, app, unhurried]) == [.clearDeadline(7), .release(7), .clearDeadline(9)])
        #expect(sweep(&machine, now: 41, [done, shut]) == [.close])
    }

    @Test("a socket that takes nothing past the send timeout closes the connection; one that drains clears the clock")
    func blockedSocket() {
        var machine = Machine(now: 0)
        machine.blocked(now: 100)
        machine.blocked(now: 140)
        #expect(sweep(&machine, now: 150, [Stream(id: 1, opened: 100, phase: .reading)]).isEmpty)
        #expect(sweep(&machine, now: 151) == [.close], "the first refusal started the clock")
        machine.drained()
        #expect(machine.blockedSince == nil)
        #expect(sweep(&machine, now: 151, [Stream(id: 1, opened: 100, phase: .reading)]).isEmpty)
    }

    @Test("with nothing open: the header timeout before the first request, the idle timeout after it")
    func idle() {
        var fresh = Machine(now: 0)
        #expect(sweep(&fresh, now: 100, served: false).isEmpty)
        #expect(sweep(&fresh, now: 101, served: false) == [.terminate])

        var used = Machine(now: 0)
        used.streamClosed(now: 500, open: 1)
        #expect(used.idleSince == 0, "a stream is still open")
        used.streamClosed(now: 600, open: 0)
        #expect(sweep(&used, now: 1600).isEmpty)
        #expect(sweep(&used, now: 1601) == [.terminate])
    }

    @Test("a drain sends one GOAWAY, ends the apps' streams, and ends the session once nothing is open")
    func drain() {
        var machine = Machine(now: 0)
        let app = Stream(id: 1, opened: 0, phase: .sending(deadline: nil, unread: 0, appStream: true))
        let page = Stream(id: 3, opened: 0, phase: .waiting(since: 0))
        #expect(sweep(&machine, now: 10, [app, page], draining: true) == [.goAway, .endStream(1)])
        #expect(machine.goingAway)
        #expect(sweep(&machine, now: 20, [page], draining: true).isEmpty, "one GOAWAY")
        #expect(sweep(&machine, now: 30, [], draining: true) == [.terminate])
    }
}
