// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads
import Testing

/// One visitor's requests one at a time: many tasks on many threads contending for one
/// key never overlap, all finish, and other keys never wait for it.
@Suite("Visitor locks")
struct VisitorLocksTests {
    final class Counts: Sendable {
        let inside = Atomic<Int>(0)
        let overlaps = Atomic<Int>(0)
        let done = Atomic<Int>(0)
    }

    // The limit only stops a deadlock from hanging the run: a full run's blocking tests
    // have held both of the pool's threads for a minute while this one waited its turn.
    @Test(
        "contended from 8 tasks, 400 times each: never two inside at once, every one gets its turn",
        .timeLimit(.minutes(10)))
    func exclusionAndProgress() async {
        let locks = VisitorLocks()
        let counts = Counts()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for round in 0..<400 {
                        await locks.withLock(42) {
                            if counts.inside.add(1, ordering: .sequentiallyConsistent).newValue != 1 {
                                counts.overlaps.add(1, ordering: .relaxed)
                            }
                            // Every few rounds the holder suspends while holding, as a
                            // request waiting for its store does.
                            if round % 7 == 0 { await Task.yield() }
                            counts.inside.subtract(1, ordering: .sequentiallyConsistent)
                        }
                        counts.done.add(1, ordering: .relaxed)
                    }
                }
            }
        }
        #expect(counts.overlaps.load(ordering: .relaxed) == 0)
        #expect(counts.done.load(ordering: .relaxed) == 3200)
        // Nothing is left held: the key is free at once.
        let free = await locks.withLock(42) { true }
        #expect(free)
    }

    @Test("a held key does not hold another")
    func otherKeysGoOn() async {
        let locks = VisitorLocks()
        let release = AsyncStream<Void>.makeStream()
        let holder = Task {
            await locks.withLock(1) {
                for await _ in release.stream { break }
            }
        }
        let other = await locks.withLock(2) { "ran" }
        #expect(other == "ran")
        release.continuation.yield()
        await holder.value
    }

    @Test("a cookie's key is 64-bit FNV-1a over its UTF-8 bytes")
    func keysAreFNV1a() {
        // Reference values computed independently (Python, the published FNV-1a offset and prime).
        let expected: [(String, Int)] = [
            ("", -3_750_763_034_362_895_579),
            ("a", -5_808_556_873_153_909_620),
            ("abc", -1_792_535_898_324_117_685),
            ("caf\u{E9}", 5_253_592_154_431_032_713),
            ("user\u{0}ana", 2_935_752_677_936_370_400),
            ("QmFzZTY0VVJMLWlkLW9mLWEtc2Vzc2lvbi1jb29raWU", -3_069_092_190_642_588_988),
        ]
        for (text, key) in expected {
            #expect(VisitorLocks.key(text) == key, "\(text.debugDescription)")
        }
        // A string built from a slice hashes as its bytes do.
        let sliced = String("xxabcxx".dropFirst(2).dropLast(2))
        #expect(VisitorLocks.key(sliced) == VisitorLocks.key("abc"))
    }
}
