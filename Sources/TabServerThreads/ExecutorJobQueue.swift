// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// The jobs given to a task executor that one thread runs: `add` from `enqueue` on any
/// thread, and that thread in `runJobs`, running them as they come until the queue is
/// closed and empty. For executors whose thread is a thread of their own or the caller's.
package final class ExecutorJobQueue: Sendable {
    private struct Queue {
        var jobs: [Job] = []
        var closed = false
    }

    /// A job handed from `add` to the running thread.
    private struct Job: @unchecked Sendable {
        // Safe: taken from the queue once and run once, on the running thread.
        let job: UnownedJob
    }

    private let queue = Mutex(Queue())
    private let wakeUps = DispatchSemaphore(value: 0)

    package init() {}

    /// Queues `job` for the running thread.
    package func add(_ job: consuming ExecutorJob) {
        let job = Job(job: UnownedJob(job))
        queue.withLock { $0.jobs.append(job) }
        wakeUps.signal()
    }

    /// No more jobs are expected: `runJobs` returns once it has run those queued.
    package func close() {
        queue.withLock { $0.closed = true }
        wakeUps.signal()
    }

    /// Runs the jobs on this thread, as `executor`, as they come, until `close()` and
    /// every job before it has run.
    package func runJobs(on executor: UnownedTaskExecutor) {
        while true {
            wakeUps.wait()
            let (jobs, closed) = queue.withLock { queue -> ([Job], Bool) in
                defer { queue.jobs = [] }
                return (queue.jobs, queue.closed)
            }
            for job in jobs { job.job.runSynchronously(on: executor) }
            if closed && jobs.isEmpty { return }
        }
    }
}
