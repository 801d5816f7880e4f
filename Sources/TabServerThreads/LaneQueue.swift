// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// Jobs run off the caller's thread, in order per key, on a few `WorkerThread`s (lanes),
/// each with a bounded queue: a job goes to the lane its key hashes to, so one key's jobs
/// run one at a time in the order they were added, and a slow job holds up only the keys
/// of its lane. A full lane refuses the job (the caller counts it); nothing waits for room.
///
/// Used for the app's hooks: the SQLite writer completes a commit and goes on to the next,
/// whatever an observer does.
package final class LaneQueue: Sendable {
    /// One lane: its jobs and its thread.
    private final class Lane: Sendable {
        struct Jobs {
            var waiting: [@Sendable () -> Void] = []
            /// Whether the lane's thread is running jobs (then a new job needs no wake).
            var running = false
            /// Whether the thread was started (on the lane's first job: most apps have no
            /// observers, and a lane never used costs no thread).
            var started = false
        }
        let jobs = Mutex(Jobs())
        let thread = WorkerThread()
        /// Signalled whenever the lane has nothing left to run (`finish(within:)`).
        let idle = Mutex<[DispatchSemaphore]>([])

        func runJobs() {
            while true {
                let next = jobs.withLock { jobs -> [@Sendable () -> Void] in
                    guard !jobs.waiting.isEmpty else {
                        jobs.running = false
                        return []
                    }
                    defer { jobs.waiting = [] }
                    return jobs.waiting
                }
                if next.isEmpty { break }
                for job in next { job() }
            }
            let waiters = idle.withLock { waiters in
                defer { waiters = [] }
                return waiters
            }
            for waiter in waiters { waiter.signal() }
        }
    }

    private let lanes: [Lane]
    private let capacity: Int
    private let acceptedJobs = Atomic<Int>(0)

    /// `lanes` threads, each holding at most `capacity` jobs not yet started.
    package init(lanes: Int = 4, capacity: Int = 1024) {
        precondition(lanes > 0 && capacity > 0)
        self.capacity = capacity
        self.lanes = (0..<lanes).map { _ in Lane() }
    }

    deinit {
        for lane in lanes { lane.thread.stop() }
    }

    /// Queues `job` on the lane of `key`; false (and the job dropped) when that lane is full.
    @discardableResult
    package func add(key: Int, _ job: @escaping @Sendable () -> Void) -> Bool {
        let lane = lanes[Int(UInt(bitPattern: key) % UInt(lanes.count))]
        let (added, wake, start) = lane.jobs.withLock { jobs -> (Bool, Bool, Bool) in
            guard jobs.waiting.count < capacity else { return (false, false, false) }
            jobs.waiting.append(job)
            defer {
                jobs.running = true
                jobs.started = true
            }
            return (true, !jobs.running, !jobs.started)
        }
        if added { acceptedJobs.add(1, ordering: .relaxed) }
        if start { lane.thread.start { [weak lane] in lane?.runJobs() } }
        if wake { lane.thread.wake() }
        return added
    }

    /// Jobs taken since the queue was made (refused ones not counted).
    package var accepted: Int { acceptedJobs.load(ordering: .relaxed) }

    /// Jobs queued and not yet started, over all lanes.
    package var waiting: Int { lanes.reduce(0) { $0 + $1.jobs.withLock { $0.waiting.count } } }

    /// Waits until every lane has run what it holds, for at most `timeout`; false when
    /// some lane was still busy then (a server stopping gives its hooks that long).
    package func finish(within timeout: Duration) -> Bool {
        let deadline = DispatchTime.after(timeout)
        for lane in lanes {
            // Again after each wake: the lane may have taken new jobs since it said so.
            while true {
                let semaphore = DispatchSemaphore(value: 0)
                let busy = lane.jobs.withLock { jobs in
                    if jobs.running { lane.idle.withLock { $0.append(semaphore) } }
                    return jobs.running
                }
                if !busy { break }
                if semaphore.wait(timeout: deadline) == .timedOut { return false }
            }
        }
        return true
    }
}
