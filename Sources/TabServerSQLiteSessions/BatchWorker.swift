// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerSessions

#if canImport(Glibc)
    import Glibc
#endif

/// A thread of its own that runs some work once for each `wake()`, scheduled as
/// `SCHED_BATCH`. (The SQLite store wakes it only when its writer goes from idle to busy,
/// and the work drains everything queued, so wakes do not pile up.)
///
/// Why not a dispatch queue: the SQLite writer is woken thousands of times a second under
/// load, and a normal thread that wakes preempts whoever runs, an engine loop in the middle
/// of a request. Measured on 2 cores with 2,000 visitors, the loops were preempted ~2,000
/// times a second and each commit took only 3–4 writes. A `SCHED_BATCH` thread gets the
/// same share of the CPU but never preempts on waking: it runs when a loop waits for input,
/// and by then more writes have queued, so commits are fewer and larger. When cores are
/// idle it runs at once, as before. (The policy is per thread, so it cannot be set on a
/// thread that dispatch shares with other work.)
///
/// Gathering: woken within `busyWindow` of its last run's end (work arrives steadily), it
/// sleeps `gather` before running, so more work joins the run (a commit delay, as
/// databases do for group commit). Woken after a quiet spell, it runs at once. Measured
/// with 2,000 visitors on the SQLite store, 100 µs against `sched_yield` alone (two A/Bs
/// of 8 rounds): 0.35 and 0.9 µs less server CPU a request, p99 4.7–4.8 → 4.2–4.4 ms:
/// fewer, larger commits cost less than the wait.
///
/// `@unchecked Sendable` is safe: `work` and `fallback` are written only in `start`,
/// before the thread runs and before the owner's first `wake()`; `lastRunEnd` only on
/// the worker's thread.
final class BatchWorker: @unchecked Sendable {
    private let wakeUps = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)
    private var work: (@Sendable () -> Void)?
    private let gather: Duration
    private let busyWindow: Duration
    /// When the last run ended (uptime nanoseconds; 0 before the first).
    private var lastRunEnd: UInt64 = 0
    /// Runs that waited `gather` first (tests and diagnostics).
    let gatheredRuns = Atomic<Int>(0)

    /// `gather`: how long a run waits for more work when the worker is busy (`.zero`: never).
    init(gather: Duration = .zero, busyWindow: Duration = .milliseconds(2)) {
        self.gather = gather
        self.busyWindow = busyWindow
    }

    /// Starts the thread; it runs `work` after each `wake()`. Call once.
    func start(_ work: @escaping @Sendable () -> Void) {
        precondition(self.work == nil, "BatchWorker started twice")
        self.work = work
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let created = pthread_create(
            &thread, nil,
            { context in
                let worker = Unmanaged<BatchWorker>.fromOpaque(context!).takeRetainedValue()
                worker.run()
                return nil
            }, context)
        guard created == 0 else {
            // No thread (resource limits): run the work on dispatch instead.
            Unmanaged<BatchWorker>.fromOpaque(context).release()
            self.work = nil
            fallback = work
            return
        }
        pthread_detach(thread)
    }

    /// Used when no thread could be created.
    private var fallback: (@Sendable () -> Void)?

    /// Has the work run (again) soon.
    func wake() {
        if let fallback {
            DispatchQueue.global(qos: .userInitiated).async(execute: fallback)
            return
        }
        wakeUps.signal()
    }

    /// Ends the thread after the run in progress, if any.
    func stop() {
        stopped.store(true, ordering: .sequentiallyConsistent)
        wakeUps.signal()
    }

    private func run() {
        var parameters = sched_param()
        _ = sched_setscheduler(0, Self.batchPolicy, &parameters)
        while true {
            wakeUps.wait()
            if stopped.load(ordering: .sequentiallyConsistent) { return }
            if gather > .zero, lastRunEnd > 0, Self.nanoseconds(since: lastRunEnd) < busyWindow {
                gatheredRuns.add(1, ordering: .relaxed)
                var pause = timespec(tv_sec: 0, tv_nsec: Int(gather.components.attoseconds / 1_000_000_000))
                pause.tv_sec = Int(gather.components.seconds)
                _ = nanosleep(&pause, nil)
            } else {
                // Lets the loops finish the requests in hand first: more of their writes join
                // this run (measured: 3,750 runs in 5 s instead of 6,000; 2% less CPU a request).
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
