// SPDX-License-Identifier: Apache-2.0
import TabServerThreads

/// A task executor whose jobs run on the thread that waits for them: one call's task is
/// started with it as its preference, and the calling thread runs the task's jobs (and
/// those of default actors it calls) until the task says it is finished. For a thread
/// that may block anyway (a work lane), not for an engine loop or the cooperative pool.
final class CallingThreadExecutor: TaskExecutor, Sendable {
    private let jobs = ExecutorJobQueue()

    func enqueue(_ job: consuming ExecutorJob) {
        jobs.add(job)
    }

    /// Said by the task's last job: the waiting thread returns once it has run.
    func finish() {
        jobs.close()
    }

    /// Runs the jobs as they come until `finish()`.
    func runUntilFinished() {
        jobs.runJobs(on: asUnownedTaskExecutor())
    }
}
