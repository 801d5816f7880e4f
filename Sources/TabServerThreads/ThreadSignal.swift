// SPDX-License-Identifier: Apache-2.0
import Dispatch

/// Wakes a thread of the blocking pool (or a store's own thread) that waits for
/// something another thread does: a commit, a request to read a map again. Signals are
/// counted, so one sent before the wait is not lost. Only for threads that may block:
/// never an engine loop, never a task.
///
/// ```swift
/// let committed = ThreadSignal()
/// writer.submit { commit(); committed.signal() }
/// guard committed.wait(for: .seconds(10)) else { throw TimedOut() }
/// ```
package struct ThreadSignal: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)

    package init() {}

    /// Wakes one waiter, or the next one to wait.
    package func signal() {
        semaphore.signal()
    }

    /// Blocks until signalled or until `timeout` has passed; true when signalled.
    @discardableResult
    package func wait(for timeout: Duration) -> Bool {
        semaphore.wait(timeout: .after(timeout)) == .success
    }

    /// Takes every signal already sent, without blocking; true when there was one.
    @discardableResult
    package func drain() -> Bool {
        var any = false
        while semaphore.wait(timeout: .now()) == .success { any = true }
        return any
    }
}
