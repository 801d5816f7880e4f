// SPDX-License-Identifier: Apache-2.0
#if canImport(Glibc)
    import Glibc
#endif

/// A one-shot gate: `wait()` blocks until `signalAll()` has been called, then every
/// current and future waiter passes. Built on a pthread condition variable because
/// `AppServer.run()` blocks a plain thread, not a task.
///
/// `@unchecked Sendable` is safe: the mutex and condition are allocated once, only used
/// through pthread calls that synchronize themselves, and freed in `deinit`.
final class StopGate: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var open = false  // guarded by `mutex`

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

    func wait() {
        pthread_mutex_lock(mutex)
        while !open { pthread_cond_wait(condition, mutex) }
        pthread_mutex_unlock(mutex)
    }

    func signalAll() {
        pthread_mutex_lock(mutex)
        open = true
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}
