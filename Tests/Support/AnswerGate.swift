// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A one-way switch a handler awaits: `wait()` suspends, without polling, until the test
/// calls `open()` (then every waiter, and every later `wait()`, goes on at once). Tests
/// open it in a `defer` too, so a failed test never leaves a handler waiting.
public final class AnswerGate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    public init() {}

    public var isOpen: Bool { state.withLock { $0.isOpen } }

    /// Lets every waiter go on.
    public func open() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the gate is open.
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let openAlready = state.withLock { state -> Bool in
                if !state.isOpen { state.waiters.append(continuation) }
                return state.isOpen
            }
            if openAlready { continuation.resume() }
        }
    }
}
