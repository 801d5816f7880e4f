// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// Where a task's jobs run once its loop has stopped (a handler still awaiting something
/// when the drain's grace ran out): on one thread of the engine's own, so the task runs to
/// its end and lets go of what it holds; its answer has nobody left to take it.
final class AfterStopJobs: Sendable {
    private struct Job: @unchecked Sendable {
        // Safe: an `UnownedJob` is handed from the loop that stopped to this thread once,
        // and run once, here.
        let job: UnownedJob
        let executor: UnownedTaskExecutor
    }

    private let waiting = Mutex<[Job]>([])
    private let worker = WorkerThread()
    private let started = Atomic<Bool>(false)

    /// Runs `job` (a task of `loop`'s) on the after-stop thread.
    func run(_ job: UnownedJob, on loop: EventLoop) {
        waiting.withLock { $0.append(Job(job: job, executor: loop.asUnownedTaskExecutor())) }
        if !started.exchange(true, ordering: .acquiringAndReleasing) {
            worker.start { [self] in drain() }
        }
        worker.wake()
    }

    private func drain() {
        while true {
            let batch = waiting.withLock { jobs -> [Job] in
                defer { jobs = [] }
                return jobs
            }
            if batch.isEmpty { return }
            for job in batch { job.job.runSynchronously(on: job.executor) }
        }
    }

    deinit { worker.stop() }
}
