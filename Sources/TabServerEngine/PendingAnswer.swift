// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP

/// The answer of a request whose responder task suspended: the task completes it, on its
/// loop's thread most of the time (the task prefers that loop's executor) but possibly on
/// another, and the connection that waits for it is woken then.
final class PendingAnswer: Sendable {
    private struct State {
        var answer: ResponderAnswer?
        var wake: (@Sendable () -> Void)?
        var taken = false
    }

    private let state = Mutex(State())

    /// Gives the answer; only the first call counts.
    func complete(_ answer: consuming ResponderAnswer) {
        // Moved in and, by `take`, out again: a copy of an answer retains each of its
        // headers' strings.
        var given = Optional(answer)
        let wake = state.withLock { state -> (@Sendable () -> Void)? in
            guard state.answer == nil, !state.taken else { return nil }
            state.answer = given.take()
            defer { state.wake = nil }
            return state.wake
        }
        wake?()
    }

    /// `wake` is called (at once if the answer is there already) when it can be taken.
    func attach(wake: @escaping @Sendable () -> Void) {
        let ready = state.withLock { state -> Bool in
            if state.answer == nil { state.wake = wake }
            return state.answer != nil
        }
        if ready { wake() }
    }

    /// The answer once it is there (only once).
    func take() -> ResponderAnswer? {
        state.withLock { state in
            guard !state.taken, state.answer != nil else { return nil }
            state.taken = true
            return state.answer.take()
        }
    }

    /// Gives up on the answer (the connection is gone or out of time): the task's answer,
    /// when it comes, is dropped.
    func abandon() {
        state.withLock { state in
            state.taken = true
            state.wake = nil
        }
    }
}
