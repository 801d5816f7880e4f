// SPDX-License-Identifier: Apache-2.0
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The state of one `HTTPServer` (see `HTTPServer.State`), and a way to wait for one:
/// the second of two `shutdown()` calls blocks until the first has stopped the loops.
/// Built on a pthread condition variable because `shutdown()` blocks a plain thread
/// (a signal handler's, a `deinit`'s), not a task.
///
/// The loops read the state on every request and turn of their loop, so it is an atomic
/// they load without the lock; it changes only with the lock held, which is what waiters
/// sleep on.
///
/// `@unchecked Sendable` is safe: `current` is atomic and written only with `mutex` held;
/// the mutex and condition are allocated once, used only through pthread calls that
/// synchronize themselves, and freed in `deinit`.
final class Lifecycle: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private let current = Atomic<UInt8>(HTTPServer.State.created.rawValue)  // written with `mutex` held

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// The state now.
    var state: HTTPServer.State {
        HTTPServer.State(rawValue: current.load(ordering: .acquiring))!
    }

    /// Moves from `expected` to `next` if the server is in `expected`, and wakes every
    /// waiter. Returns the state it found: `expected` when it moved, another one when it
    /// changed nothing (a second `shutdown()` finds `draining` or `stopped`).
    /// `expected → next` must be a legal step (`State.canAdvance(to:)`).
    @discardableResult
    func advance(from expected: HTTPServer.State, to next: HTTPServer.State) -> HTTPServer.State {
        precondition(expected.canAdvance(to: next), "HTTPServer cannot go from \(expected) to \(next)")
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let found = state
        guard found == expected else { return found }
        current.store(next.rawValue, ordering: .releasing)
        pthread_cond_broadcast(condition)
        return found
    }

    /// Blocks until the server is `stopped`. Only called once `draining` has begun, so
    /// the wait ends when the drain does: at most the grace period and the loops' exit.
    func waitUntilStopped() {
        pthread_mutex_lock(mutex)
        while state != .stopped { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }
}
