// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Periodic work: `tick` runs every `interval` (after the interval, not at once) until it
/// returns false or the timer is cancelled, by `cancel()` or when its last reference goes.
/// The server's periodic work runs this way: the session sweep, the live-update
/// heartbeat, a store's health probe while the store is down.
///
/// Every timer of the process ticks on one `WorkerThread`, woken by the earliest deadline
/// (`wake(within:)`), so an idle timer costs no thread and no wake, and a tick never waits
/// for a thread of Swift's cooperative pool, which blocking work elsewhere can hold.
/// A tick must therefore be short and never block: it hands blocking work to a
/// `BlockingPool` (`submit`) and async work to a task.
///
/// ```swift
/// let heartbeat = RepeatingTimer(every: .seconds(15)) { [weak hub] in
///     guard let hub else { return false }
///     hub.beat()
///     return true
/// }
/// ```
package final class RepeatingTimer: Sendable {
    private let entry: TimerThread.Entry

    package init(every interval: Duration, _ tick: @escaping @Sendable () -> Bool) {
        entry = TimerThread.Entry(interval: interval, tick: tick)
        TimerThread.shared.schedule(entry)
    }

    /// Stops the repetition: the tick is not run again (one under way finishes).
    package func cancel() { entry.cancelled.store(true, ordering: .releasing) }

    deinit { cancel() }
}
