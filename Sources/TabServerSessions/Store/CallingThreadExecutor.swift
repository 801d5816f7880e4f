// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// A task executor whose jobs run on the thread that waits for them: one call's task is
/// started with it as its preference, and the calling thread runs the task's jobs (and
/// those of default actors it calls) until the task says it is finished. For a thread
/// that may block anyway (a work lane), not for an engine loop or the cooperative pool.
final class CallingThreadExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [Job] = []
        var finished = false
    }

    /// A job handed from `enqueue` to the waiting thread.
    private struct Job: @unchecked Sendable {
        // Safe: taken from the queue once and run once, on the waiting thread.
        let job: UnownedJob
    }

    private let queue = Mutex(Queue())
    private let wakeUps = DispatchSemaphore(value: 0)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = Job(job: UnownedJob(job))
        queue.withLock { $0.jobs.append(job) }
        wakeUps.signal()
    }

    /// Said by the task's last job: the waiting thread returns once it has run.
    func finish() {
        queue.withLock { $0.finished = true }
        wakeUps.signal()
    }

    /// Runs the jobs as they come until `finish()`.
    func runUntilFinished() {
        while true {
            wakeUps.wait()
            let (jobs, finished) = queue.withLock { queue -> ([Job], Bool) in
                defer { queue.jobs = [] }
                return (queue.jobs, queue.finished)
            }
            for job in jobs { job.job.runSynchronously(on: asUnownedTaskExecutor()) }
            if finished { return }
        }
    }
}
