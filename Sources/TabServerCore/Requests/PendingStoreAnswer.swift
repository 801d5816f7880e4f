// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerHTTP
import TabServerSessions

/// A store's answer that comes later (Redis answers its pipeline's writes and checks in
/// one round trip): the request hands its question to the store under the visitor's lock
/// and waits for the answer after letting the lock go (`PendingCommit`).
final class PendingStoreAnswer<Value: Sendable>: Sendable {
    private enum State {
        case waiting(UnsafeContinuation<Result<Value, SessionStoreError>, Never>?)
        case answered(Result<Value, SessionStoreError>)
    }

    private let state = Mutex(State.waiting(nil))

    /// The store's answer, once (a second is ignored).
    func resolve(_ result: Result<Value, SessionStoreError>) {
        let waiting = state.withLock { state -> UnsafeContinuation<Result<Value, SessionStoreError>, Never>? in
            guard case .waiting(let continuation) = state else { return nil }
            state = .answered(result)
            return continuation
        }
        waiting?.resume(returning: result)
    }

    /// Waits for the store's answer.
    nonisolated(nonsending) func result() async -> Result<Value, SessionStoreError> {
        await withUnsafeContinuation { continuation in
            let answered = state.withLock { state -> Result<Value, SessionStoreError>? in
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

/// A commit whose store answers later: a write of the session (`update` in the store's
/// pipeline), or a check that the copy a page rests on is current. The store's copy holds
/// a write at once, so the visitor's next request builds on it and its write queues behind
/// this one instead of waiting a round trip for the lock; if this one is refused, so is
/// any built on it, and each runs again. A check changes nothing, so nothing needs the
/// lock while it waits.
enum PendingCommit: Sendable {
    /// A write, with the answer to give once it is in.
    case write(PendingStoreAnswer<Session?>, answering: HTTPResponse)
    /// A check of the copy the answer rests on.
    case check(PendingStoreAnswer<Bool>, answering: HTTPResponse)
}
