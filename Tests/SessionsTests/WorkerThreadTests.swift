// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import Testing

@testable import TabServerThreads

/// The server's worker thread (the SQLite writer's, the hook lanes'): every wake runs the
/// work, and with a gathering time a run right after another (steady work) first waits a
/// moment so more work joins it.
@Suite("Worker thread")
struct WorkerThreadTests {
    /// Counts runs and lets the test wait for the n-th.
    final class Runs: Sendable {
        private let count = Mutex(0)
        private let ran = DispatchSemaphore(value: 0)
        func record() {
            count.withLock { $0 += 1 }
            ran.signal()
        }
        /// Waits up to 5 s for one more run.
        func awaitRun() -> Bool { ran.wait(timeout: .now() + 5) == .success }
        var total: Int { count.withLock { $0 } }
    }

    @Test("a wake soon after a run waits to gather; the first run does not")
    func gathersWhenBusy() {
        // A busy window of a minute: the second wake is surely within it.
        let worker = WorkerThread(policy: .batch, gather: .microseconds(200), busyWindow: .seconds(60))
        let runs = Runs()
        worker.start { runs.record() }
        defer { worker.stop() }
        worker.wake()
        #expect(runs.awaitRun())
        #expect(worker.gatheredRuns.load(ordering: .relaxed) == 0)
        worker.wake()
        #expect(runs.awaitRun())
        #expect(worker.gatheredRuns.load(ordering: .relaxed) == 1)
        #expect(runs.total == 2)
    }

    @Test("after a quiet spell, or without a gathering time, a wake runs at once")
    func runsAtOnceWhenQuiet() {
        // A busy window of zero: every wake comes after it.
        let quiet = WorkerThread(policy: .batch, gather: .milliseconds(50), busyWindow: .zero)
        let never = WorkerThread(policy: .batch, gather: .zero, busyWindow: .seconds(60))
        for worker in [quiet, never] {
            let runs = Runs()
            worker.start { runs.record() }
            for _ in 0..<3 {
                worker.wake()
                #expect(runs.awaitRun())
            }
            #expect(worker.gatheredRuns.load(ordering: .relaxed) == 0)
            #expect(runs.total == 3)
            worker.stop()
        }
    }

    @Test("a deadline runs the work once it passes; a wake before it runs it sooner; earlier deadlines win")
    func deadlines() {
        let worker = WorkerThread()
        let runs = Runs()
        worker.start { runs.record() }
        defer { worker.stop() }

        // Only a deadline: the work runs when it passes, once.
        worker.wake(within: .milliseconds(20))
        #expect(runs.awaitRun())
        #expect(runs.total == 1)

        // A far deadline, then a near one: the near one holds (the far one would outlast
        // the five seconds `awaitRun` waits).
        worker.wake(within: .seconds(600))
        worker.wake(within: .milliseconds(20))
        #expect(runs.awaitRun())
        #expect(runs.total == 2)

        // A far deadline, then a wake: the wake runs the work at once; a near deadline
        // after that run is kept as ever.
        worker.wake(within: .seconds(600))
        worker.wake()
        #expect(runs.awaitRun())
        worker.wake(within: .milliseconds(20))
        #expect(runs.awaitRun())
        #expect(runs.total == 4)
    }
}
