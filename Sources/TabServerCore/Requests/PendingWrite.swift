// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP
import TabServerSessions

/// A write handed to the store's pipeline whose answer comes later (Redis): the store's
/// copy holds it at once, so the visitor's lock is let go as soon as it is sent, and the
/// request waits for the answer outside it. The visitor's next request builds on the copy
/// and its write queues behind this one, instead of waiting a round trip for the lock; if
/// this one is refused, so is any built on it, and each runs again.
final class PendingWrite: Sendable {
    private enum State {
        case waiting(UnsafeContinuation<Result<Session?, SessionStoreError>, Never>?)
        case answered(Result<Session?, SessionStoreError>)
    }

    private let state = Mutex(State.waiting(nil))
    /// The answer to give once the write is in.
    let response: HTTPResponse

    init(answering response: HTTPResponse) {
        self.response = response
    }

    /// The store's answer: the session as stored, nil when another write came first.
    func resolve(_ result: Result<Session?, SessionStoreError>) {
        let waiting = state.withLock { state -> UnsafeContinuation<Result<Session?, SessionStoreError>, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .answered(result)
            return continuation
        }
        waiting?.resume(returning: result)
    }

    /// Waits for the store's answer.
    nonisolated(nonsending) func result() async -> Result<Session?, SessionStoreError> {
        await withUnsafeContinuation { continuation in
            let answered = state.withLock { state -> Result<Session?, SessionStoreError>? in
                switch state {
                case .answered(let result): return result
                case .waiting:
                    state = .waiting(continuation)
                    return nil
                }
            }
            if let answered { continuation.resume(returning: answered) }
        }
    }
}
