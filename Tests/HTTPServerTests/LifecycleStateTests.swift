// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Testing

@testable import TabServerEngine

/// The server's one record of its life, without a socket: the steps it may take, what
/// the loops read from it, and the wait the second `shutdown()` does.
@Suite("HTTP engine lifecycle as a state machine")
struct LifecycleStateTests {
    typealias State = HTTPServer.State

    @Test("a server only moves forward, one step at a time, or to stopping when its loops cannot start")
    func steps() {
        let order: [State] = [.created, .bound, .running, .draining, .stopping, .stopped]
        var allowed: Set<[State]> = []
        for (from, to) in zip(order, order.dropFirst()) { allowed.insert([from, to]) }
        allowed.insert([.bound, .stopping])
        for from in order {
            for to in order {
                #expect(from.canAdvance(to: to) == allowed.contains([from, to]), "\(from) → \(to)")
            }
        }
    }

    @Test("the loops read draining from draining on, and stopping from stopping on")
    func readings() {
        let draining: [State: Bool] = [
            .created: false, .bound: false, .running: false, .draining: true, .stopping: true, .stopped: true,
        ]
        let stopping: [State: Bool] = [
            .created: false, .bound: false, .running: false, .draining: false, .stopping: true, .stopped: true,
        ]
        for (state, expected) in draining { #expect(state.isDraining == expected, "\(state)") }
        for (state, expected) in stopping { #expect(state.isStopping == expected, "\(state)") }
    }

    @Test("advance moves only from the state it expects, and says what it found")
    func advance() {
        let lifecycle = Lifecycle()
        #expect(lifecycle.state == .created)
        #expect(lifecycle.advance(from: .created, to: .bound) == .created)
        #expect(lifecycle.advance(from: .bound, to: .running) == .bound)
        #expect(lifecycle.advance(from: .running, to: .draining) == .running)
        // A second shutdown finds the first one's draining and changes nothing.
        #expect(lifecycle.advance(from: .running, to: .draining) == .draining)
        #expect(lifecycle.state == .draining)
    }

    @Test("waitUntilStopped returns once another thread takes the server to stopped")
    func waits() {
        let lifecycle = Lifecycle()
        lifecycle.advance(from: .created, to: .bound)
        lifecycle.advance(from: .bound, to: .running)
        lifecycle.advance(from: .running, to: .draining)
        let returned = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            lifecycle.waitUntilStopped()
            returned.signal()
        }
        #expect(returned.wait(timeout: .now() + .milliseconds(100)) == .timedOut, "returned while draining")
        lifecycle.advance(from: .draining, to: .stopping)
        #expect(returned.wait(timeout: .now() + .milliseconds(100)) == .timedOut, "returned while stopping")
        lifecycle.advance(from: .stopping, to: .stopped)
        #expect(returned.wait(timeout: .now() + .seconds(5)) == .success)
    }
}
