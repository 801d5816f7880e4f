// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions
import TabServerThreads

/// Writes committed together in one transaction (group commit): everyone waiting for
/// one of them hears the outcome once, when the transaction is durable or has failed.
final class CommitGroup: Sendable {
    private struct State {
        /// nil while open; then `.some(nil)` for success or `.some(error)`.
        var outcome: SessionStoreError??
        var waiters: [@Sendable (SessionStoreError?) -> Void] = []
    }

    private let state = Mutex(State())

    /// Runs `handler` with the outcome: at once if it is known, else when it is.
    func whenDone(_ handler: @escaping @Sendable (SessionStoreError?) -> Void) {
        let outcome = state.withLock { state -> SessionStoreError?? in
            if let outcome = state.outcome { return .some(outcome) }
            state.waiters.append(handler)
            return nil
        }
        if let outcome { handler(outcome) }
    }

    /// Whether it has been committed and failed.
    var hasFailed: Bool { state.withLock { $0.outcome.map { $0 != nil } ?? false } }

    /// Tells everyone waiting (only the first call counts).
    func finish(_ error: SessionStoreError?) {
        let waiters = state.withLock { state -> [@Sendable (SessionStoreError?) -> Void] in
            guard state.outcome == nil else { return [] }
            state.outcome = .some(error)
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter(error) }
    }

    /// Blocks until the outcome is known (operations that need the file current), for at
    /// most `timeout`: a commit that takes longer (a disk that stalls) is reported as an
    /// error to this caller, and its outcome still reaches everyone else.
    func wait(timeout: Duration = .seconds(10)) -> SessionStoreError? {
        let done = ThreadSignal()
        let result = Mutex<SessionStoreError?>(nil)
        whenDone { error in
            result.withLock { $0 = error }
            done.signal()
        }
        guard done.wait(for: timeout) else {
            return SessionStoreError("sqlite: the commit did not finish within \(timeout)")
        }
        return result.withLock { $0 }
    }
}
