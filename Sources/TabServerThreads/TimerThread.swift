// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// The one thread every `RepeatingTimer` ticks on: it keeps the timers by their next
/// deadline and sleeps until the earliest (`WorkerThread.wake(within:)`).
final class TimerThread: Sendable {
    /// One timer.
    final class Entry: Sendable {
        let interval: Duration
        let tick: @Sendable () -> Bool
        let cancelled = Atomic<Bool>(false)

        init(interval: Duration, tick: @escaping @Sendable () -> Bool) {
            self.interval = max(interval, .milliseconds(1))
            self.tick = tick
        }
    }

    private struct Scheduled {
        /// Uptime nanoseconds.
        var due: UInt64
        var entry: Entry
    }

    static let shared = TimerThread()

    private let scheduled = Mutex<[Scheduled]>([])
    private let thread = WorkerThread()

    private init() {
        thread.start { [weak self] in self?.runDue() }
    }

    func schedule(_ entry: Entry) {
        let due = Self.now() + Self.nanoseconds(entry.interval)
        scheduled.withLock { $0.append(Scheduled(due: due, entry: entry)) }
        thread.wake(within: entry.interval)
    }

    /// Runs the ticks that are due, schedules their next, and sleeps until the earliest.
    private func runDue() {
        let now = Self.now()
        let due = scheduled.withLock { scheduled -> [Entry] in
            scheduled.removeAll { $0.entry.cancelled.load(ordering: .acquiring) }
            let due = scheduled.filter { $0.due <= now }.map(\.entry)
            scheduled.removeAll { $0.due <= now }
            return due
        }
        for entry in due where !entry.cancelled.load(ordering: .acquiring) && entry.tick() {
            scheduled.withLock {
                $0.append(Scheduled(due: Self.now() + Self.nanoseconds(entry.interval), entry: entry))
            }
        }
        guard let next = scheduled.withLock({ $0.map(\.due).min() }) else { return }
        let current = Self.now()
        thread.wake(within: .nanoseconds(Int64(next > current ? next - current : 0)))
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
