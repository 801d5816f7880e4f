// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerTesting
import Testing

@testable import TabServerThreads

#if canImport(Glibc)
    import Glibc
#endif

/// The pool for work that blocks: work given no key is spread over every lane, so blocking
/// calls of different requests run at once.
@Suite("Blocking pool")
struct BlockingPoolTests {
    @Test("four blocking jobs without a key run at once on a pool of four lanes")
    func spreadWithoutKey() async throws {
        let pool = BlockingPool(lanes: 4, capacity: 16)
        let started = Counter()
        // Each job waits (at most 5 s) until all four have started: only possible when
        // they run on four lanes at once.
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await pool.run { () -> Bool in
                        started.value.wrappingAdd(1, ordering: .relaxed)
                        for _ in 0..<500 where started.value.load(ordering: .relaxed) < 4 { usleep(10_000) }
                        return started.value.load(ordering: .relaxed) == 4
                    }
                }
            }
            for try await allStarted in group { #expect(allStarted, "a job waited alone: the lanes were not shared") }
        }
    }

    @Test("a cancelled caller stops waiting at once while its work runs on; the result is dropped")
    func cancelledWhileRunning() async throws {
        let pool = BlockingPool(lanes: 1, capacity: 4)
        let (started, release, finished) = (Flag(), Flag(), Flag())
        let caller = Task {
            try await pool.runCancellable { () -> Int in
                started.set()
                release.wait()
                finished.set()
                return 1
            }
        }
        #expect(await waitUntil(.seconds(30)) { () async in started.isSet })
        caller.cancel()
        let outcome = await caller.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(!finished.isSet, "the caller did not wait for the work")
        release.set()
        #expect(await waitUntil(.seconds(30)) { () async in finished.isSet }, "the work itself ran to its end")
    }

    @Test("work its cancelled caller had queued never runs; a caller cancelled before asking runs nothing")
    func cancelledWhileQueued() async throws {
        let pool = BlockingPool(lanes: 1, capacity: 4)
        let (busy, release, ran) = (Flag(), Flag(), Flag())
        let occupying = Task {
            try await pool.run { () -> Bool in
                busy.set()
                release.wait()
                return true
            }
        }
        #expect(await waitUntil(.seconds(30)) { () async in busy.isSet })
        let queued = Task { try await pool.runCancellable { ran.set() } }
        #expect(await waitUntil(.seconds(30)) { () async in pool.waiting == 1 }, "queued behind the busy lane")
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        release.set()
        #expect(try await occupying.value)
        try await pool.run {}  // one lane, in order: the cancelled job's turn has come and gone
        #expect(!ran.isSet, "the cancelled job was skipped")

        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await pool.runCancellable { ran.set() }
        }
        await #expect(throws: CancellationError.self) { try await early.value }
        #expect(pool.waiting == 0 && !ran.isSet)
    }

    /// A one-way switch a job can wait on (bounded: 30 s).
    private final class Flag: Sendable {
        private let value = Atomic<Bool>(false)
        private let signal = DispatchSemaphore(value: 0)
        var isSet: Bool { value.load(ordering: .acquiring) }
        func set() {
            value.store(true, ordering: .releasing)
            signal.signal()
        }
        func wait() { _ = isSet || signal.wait(timeout: .now() + 30) == .success }
    }

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }
}
