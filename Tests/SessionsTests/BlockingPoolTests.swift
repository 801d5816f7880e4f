// SPDX-License-Identifier: Apache-2.0
import Synchronization
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

    private final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }
}
