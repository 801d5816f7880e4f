// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP

/// The answer of a request whose responder task suspended: the task completes it, on its
/// loop's thread most of the time (the task prefers that loop's executor) but possibly on
/// another, and the connection that waits for it is woken then.
final class PendingAnswer: Sendable {
    private struct State {
        var answer: ResponderAnswer?
        /// The loop to tell, and the connection that waits: held, not a closure (a
        /// closure's context would be one more allocation a request).
        var waiting: (loop: EventLoop, descriptor: Int32)?
        var taken = false
        /// The task that makes the answer, cancelled when the answer is given up.
        var task: Task<Void, Never>?
    }

    private let state = Mutex(State())

    /// Gives the answer; only the first call counts.
    func complete(_ answer: consuming ResponderAnswer) {
        // Moved in and, by `take`, out again: a copy of an answer retains each of its
        // headers' strings.
        var given = Optional(answer)
        let waiting = state.withLock { state -> (loop: EventLoop, descriptor: Int32)? in
            guard state.answer == nil, !state.taken else { return nil }
            state.answer = given.take()
            state.task = nil
            defer { state.waiting = nil }
            return state.waiting
        }
        if let waiting { waiting.loop.streamReady(waiting.descriptor) }
    }

    /// `loop` is told that `descriptor` has its answer (at once if it is there already)
    /// when it can be taken.
    func attach(to loop: EventLoop, descriptor: Int32) {
        let ready = state.withLock { state -> Bool in
            if state.answer == nil { state.waiting = (loop, descriptor) }
            return state.answer != nil
        }
        if ready { loop.streamReady(descriptor) }
    }

    /// The answer once it is there (only once).
    func take() -> ResponderAnswer? {
        state.withLock { state in
            guard !state.taken, state.answer != nil else { return nil }
            state.taken = true
            return state.answer.take()
        }
    }

    /// Keeps the task making the answer, to cancel it if the answer is given up first.
    func hold(_ task: Task<Void, Never>) {
        let abandoned = state.withLock { state -> Bool in
            if !state.taken { state.task = task }
            return state.taken && state.answer == nil
        }
        if abandoned { task.cancel() }
    }

    /// Gives up on the answer (the client reset the connection or the stream, or it is
    /// out of time): the task making it is cancelled, and its answer, when it comes, is
    /// dropped.
    func abandon() {
        let task = state.withLock { state -> Task<Void, Never>? in
            state.taken = true
            state.waiting = nil
            defer { state.task = nil }
            return state.answer == nil ? state.task : nil
        }
        task?.cancel()
    }
}
