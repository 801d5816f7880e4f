// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// The loop as a Swift task executor (SE-0417): a request the responder cannot answer at
/// once runs as a task that prefers this loop, so the app's async handler, and whatever it
/// awaits that resumes it, runs on the loop's own thread, between epoll waits, and its
/// answer is written there without a hop. Jobs enqueued from another thread (a store's
/// commit resuming a request) wake the loop through its pipe; jobs the loop enqueues itself
/// run before it waits again.
extension EventLoop: TaskExecutor {
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let (accepted, wake) = jobs.withLock { queue -> (Bool, Bool) in
            guard !queue.stopped else { return (false, false) }
            queue.waiting.append(job)
            defer { queue.signalled = true }
            return (true, !queue.signalled)
        }
        guard accepted else {
            // The loop has stopped: the job still runs (its task finishes, its answer is
            // dropped), on the engine's after-stop thread.
            engine.afterStop.run(job, on: self)
            return
        }
        if wake && !isOnLoopThread { self.wake() }
    }

    /// Whether the caller runs on this loop's thread.
    var isOnLoopThread: Bool { pthread_equal(pthread_self(), thread) != 0 }

    /// Runs the jobs queued so far (and those they queue, up to a bound, so one busy task
    /// cannot starve the sockets); whether any are left for the next turn.
    func runJobs() -> Bool {
        for _ in 0..<Self.jobRounds {
            // The two lists trade places: returning the queue's list and emptying it kept
            // the buffer shared, so the emptying allocated a new one every round.
            var batch = takenJobs
            takenJobs = []
            jobs.withLock { queue in
                swap(&queue.waiting, &batch)
                queue.signalled = false
            }
            if batch.isEmpty {
                takenJobs = batch
                return false
            }
            for job in batch { job.runSynchronously(on: asUnownedTaskExecutor()) }
            batch.removeAll(keepingCapacity: true)
            takenJobs = batch
            takeReady()
        }
        return jobs.withLock { !$0.waiting.isEmpty }
    }

    /// Rounds of jobs one turn of the loop runs before it looks at its sockets again.
    static let jobRounds = 8

    /// Stops taking jobs: from now on they run on the after-stop thread; any left are
    /// handed to it.
    func stopJobs() {
        let left = jobs.withLock { queue -> [UnownedJob] in
            queue.stopped = true
            defer { queue.waiting = [] }
            return queue.waiting
        }
        for job in left { engine.afterStop.run(job, on: self) }
    }

    /// The loop's job queue.
    struct JobQueue {
        var waiting: [UnownedJob] = []
        /// Set from the first job queued until the loop takes the queue: later jobs need
        /// no wake.
        var signalled = false
        var stopped = false
    }

    /// The responder's answer to `request`: at once when it has one, or when its task ran
    /// to the end without waiting; else the pending answer its task completes.
    func ask(_ request: consuming HTTPRequest) -> Asked {
        let responder = engine.responder
        if let answer = responder.immediateAnswer(to: request) { return .now(answer) }
        let pending = PendingAnswer()
        // Moved into the task, not copied (a copy retains each of its strings and arrays).
        let task = Task.immediate(executorPreference: self) { [request = consume request] in
            pending.complete(await responder.answer(to: request))
        }
        if let answer = pending.take() { return .now(answer) }
        // Given up (a reset, a stream reset, its deadline), the answer's task is cancelled.
        pending.hold(task)
        return .later(pending)
    }

    enum Asked {
        case now(ResponderAnswer)
        case later(PendingAnswer)
    }
}
