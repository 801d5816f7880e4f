// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The one kind of thread the server starts for work of its own besides the engine's
/// loops (the SQLite writer, each hook lane): a thread that runs its work once for each
/// `wake()`. Its owner keeps the queue of work; the run drains it, so wakes do not pile
/// up, and a wake while a run is in progress runs the work once more after it.
///
/// A worker waits for a wake without a timeout (it never polls): an idle worker costs
/// nothing. `wake(within:)` asks for a run by a deadline instead of at once (the log
/// writer's flush of what gathered): the worker then waits until the earliest deadline
/// asked for, or a `wake()`, whichever comes first.
///
/// `Policy.batch` schedules it as `SCHED_BATCH`. Why, for the SQLite writer: it is woken
/// thousands of times a second under load, and a normal thread that wakes preempts
/// whoever runs, an engine loop in the middle of a request, to commit only the few writes
/// queued by then. A `SCHED_BATCH` thread gets the same share of the CPU but never
/// preempts on waking: it runs when a loop waits for input, and by then more writes have
/// queued, so commits are fewer and larger. When cores are idle it runs at once, as a
/// normal thread would. (The policy is per thread, so it cannot be set on a thread that
/// dispatch shares with other work.)
///
/// Gathering: woken within `busyWindow` of its last run's end (work arrives steadily), it
/// sleeps `gather` before running, so more work joins the run (a commit delay, as
/// databases do for group commit). Woken after a quiet spell, it runs at once. Under
/// steady writes, fewer and larger commits save more server CPU a request, and more of
/// the tail latency, than the short wait adds (the SQLite writer's is 100 µs).
///
/// `@unchecked Sendable` is safe: `work` and `fallback` are written only in `start`,
/// before the thread runs and before the owner's first `wake()`, and `work` once more
/// by the thread itself as it ends; `lastRunEnd` only on the worker's thread.
package final class WorkerThread: @unchecked Sendable {
    /// How the thread is scheduled.
    package enum Policy: Sendable {
        /// The system's default: it runs as soon as it is woken, if a core is free or
        /// its share says so.
        case normal
        /// `SCHED_BATCH`: never preempts a running thread on waking (see the type).
        case batch
    }

    private let wakeUps = DispatchSemaphore(value: 0)
    /// The earliest run asked for by `wake(within:)`, in uptime nanoseconds (0: none).
    private let deadline = Atomic<UInt64>(0)
    /// Signals of `wakeUps` that only brought a new deadline, not a wake.
    private let deadlineSignals = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private var work: (@Sendable () -> Void)?
    private let policy: Policy
    private let gather: Duration
    private let busyWindow: Duration
    /// When the last run ended (uptime nanoseconds; 0 before the first).
    private var lastRunEnd: UInt64 = 0
    /// Runs that waited `gather` first (tests and diagnostics).
    package let gatheredRuns = Atomic<Int>(0)

    /// `gather`: how long a run waits for more work when the worker is busy (`.zero`: never).
    package init(policy: Policy = .normal, gather: Duration = .zero, busyWindow: Duration = .milliseconds(2)) {
        self.policy = policy
        self.gather = gather
        self.busyWindow = busyWindow
    }

    /// Starts the thread; it runs `work` after each `wake()`. Call once.
    package func start(_ work: @escaping @Sendable () -> Void) {
        precondition(self.work == nil, "WorkerThread started twice")
        self.work = work
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let worker = Unmanaged<WorkerThread>.fromOpaque(context!).takeRetainedValue()
                worker.run()
                return nil
            }, context)
        guard created == 0 else {
            // No thread (resource limits): run the work on a serial dispatch queue instead,
            // which keeps the one-run-at-a-time promise.
            Unmanaged<WorkerThread>.fromOpaque(context).release()
            self.work = nil
            fallback = work
            return
        }
        pthread_detach(thread)
    }

    /// Used when no thread could be created.
    private var fallback: (@Sendable () -> Void)?
    private let fallbackQueue = DispatchQueue(label: "tabserver.worker-fallback")

    /// Runs `job` once on a worker thread of its own, which ends with it: for work that
    /// lasts (a subscription's blocking reads, a backup) and must hold no shared thread.
    package static func detach(_ job: @escaping @Sendable () -> Void) {
        let worker = WorkerThread()
        worker.start { [unowned worker] in
            job()
            worker.stop()
        }
        worker.wake()
    }

    /// Has the work run (again) soon.
    package func wake() {
        if let fallback {
            fallbackQueue.async(execute: fallback)
            return
        }
        wakeUps.signal()
    }

    /// Has the work run within `delay`, or sooner when a `wake()` comes first. Of several
    /// deadlines asked for before a run, the earliest holds.
    package func wake(within delay: Duration) {
        let at = DispatchTime.after(delay).uptimeNanoseconds
        if let fallback {
            fallbackQueue.asyncAfter(deadline: DispatchTime(uptimeNanoseconds: at), execute: fallback)
            return
        }
        var current = deadline.load(ordering: .acquiring)
        while current == 0 || at < current {
            let (exchanged, found) = deadline.compareExchange(
                expected: current, desired: at, ordering: .acquiringAndReleasing)
            if exchanged {
                deadlineSignals.add(1, ordering: .releasing)
                wakeUps.signal()
                return
            }
            current = found
        }
    }

    /// Ends the thread after the run in progress, if any.
    package func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        wakeUps.signal()
    }

    private func run() {
        if policy == .batch {
            var parameters = sched_param()
            _ = sched_setscheduler(0, Self.batchPolicy, &parameters)
        }
        while true {
            let due = deadline.load(ordering: .acquiring)
            var timedOut = false
            if due == 0 {
                wakeUps.wait()
            } else {
                timedOut = wakeUps.wait(timeout: DispatchTime(uptimeNanoseconds: due)) == .timedOut
            }
            if stopped.load(ordering: .sequentiallyConsistent) {
                // Lets go of the work, and whatever it holds (often this thread's owner).
                work = nil
                return
            }
            if !timedOut, deadlineSignals.load(ordering: .acquiring) > 0 {
                // A new deadline, not a wake: wait again, until it.
                deadlineSignals.subtract(1, ordering: .relaxed)
                continue
            }
            // This run serves whatever deadline was asked for.
            deadline.store(0, ordering: .releasing)
            if gather > .zero, lastRunEnd > 0, Self.nanoseconds(since: lastRunEnd) < busyWindow {
                gatheredRuns.add(1, ordering: .relaxed)
                var pause = timespec(tv_sec: 0, tv_nsec: Int(gather.components.attoseconds / 1_000_000_000))
                pause.tv_sec = Int(gather.components.seconds)
                _ = nanosleep(&pause, nil)
            } else if policy == .batch {
                // Lets the loops finish the requests in hand first: more of their writes join
                // this run, so runs are fewer and each commits more.
                sched_yield()
            }
            work?()
            lastRunEnd = DispatchTime.now().uptimeNanoseconds
        }
    }

    private static func nanoseconds(since start: UInt64) -> Duration {
        .nanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- start))
    }

    /// `SCHED_BATCH` (Linux; glibc declares it only under _GNU_SOURCE).
    private static let batchPolicy: Int32 = 3
}
