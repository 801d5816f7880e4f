// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import Testing

@testable import TabServerThreads

/// Jobs in order per key on bounded lanes: what the hooks and the store's waiting
/// requests run on.
@Suite("Lane queue")
struct LaneQueueTests {
    @Test("one key's jobs run one at a time in the order they were added, off the caller's thread")
    func orderPerKey() {
        let queue = LaneQueue(lanes: 3, capacity: 10_000)
        let seen = Mutex<[Int: [Int]]>([:])
        let running = Mutex<Set<Int>>([])
        let overlapped = Atomic<Bool>(false)
        DispatchQueue.concurrentPerform(iterations: 4) { key in
            for index in 0..<500 {
                #expect(
                    queue.add(key: key) {
                        if !running.withLock({ $0.insert(key).inserted }) { overlapped.store(true, ordering: .relaxed) }
                        seen.withLock { $0[key, default: []].append(index) }
                        running.withLock { _ = $0.remove(key) }
                    })
            }
        }
        #expect(queue.finish(within: .seconds(5)))
        let all = seen.withLock { $0 }
        for key in 0..<4 { #expect(all[key] == Array(0..<500), "key \(key)") }
        let didOverlap = overlapped.load(ordering: .relaxed)
        #expect(!didOverlap)
        #expect(queue.waiting == 0)
    }

    @Test("a slow job holds up its own lane only")
    func slowLaneAlone() {
        let queue = LaneQueue(lanes: 2, capacity: 16)
        let release = DispatchSemaphore(value: 0)
        let otherRan = DispatchSemaphore(value: 0)
        #expect(queue.add(key: 0) { release.wait() })
        #expect(queue.add(key: 1) { otherRan.signal() })
        #expect(otherRan.wait(timeout: .now() + 2) == .success, "lane 1 ran while lane 0 was held")
        #expect(!queue.finish(within: .milliseconds(50)), "lane 0 is still busy")
        release.signal()
        #expect(queue.finish(within: .seconds(2)))
    }

    @Test("a full lane refuses the job (and runs nothing of it); room again once it drains")
    func boundedLane() {
        let queue = LaneQueue(lanes: 1, capacity: 3)
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        let ran = Atomic<Int>(0)
        #expect(
            queue.add(key: 7) {
                started.signal()
                release.wait()
            })
        #expect(started.wait(timeout: .now() + 2) == .success)
        for _ in 0..<3 { #expect(queue.add(key: 7) { ran.add(1, ordering: .relaxed) }) }
        #expect(!queue.add(key: 7) { ran.add(100, ordering: .relaxed) }, "the fourth waiting job is refused")
        #expect(queue.waiting == 3)
        release.signal()
        #expect(queue.finish(within: .seconds(2)))
        #expect(ran.load(ordering: .relaxed) == 3)
        #expect(queue.add(key: 7) { ran.add(1, ordering: .relaxed) })
        #expect(queue.finish(within: .seconds(2)))
        #expect(ran.load(ordering: .relaxed) == 4)
    }
}
