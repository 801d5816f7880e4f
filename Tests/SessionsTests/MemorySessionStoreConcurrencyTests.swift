// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerSessions
import Testing

@Suite("MemorySessionStore under concurrent updates")
struct MemorySessionStoreConcurrencyTests {
    @Test("every successful compare-and-set is kept; none is lost")
    func concurrentUpdates() throws {
        let store = MemorySessionStore()
        let session = Session.new(now: 0)
        store.insert(session)
        let threads = 6
        let attemptsPerThread = 300
        let successes = Mutex<[String]>([])
        let attempts = Atomic<Int>(0)

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for attempt in 0..<attemptsPerThread {
                guard var copy = store.load(session.id, now: 0) else { continue }
                let mark = "\(thread)-\(attempt)"
                copy.customizationStart = (copy.customizationStart ?? []) + [mark]
                attempts.add(1, ordering: .relaxed)
                if store.update(copy) != nil {
                    successes.withLock { $0.append(mark) }
                }
            }
        }

        let marks = successes.withLock { $0 }
        let last = try #require(store.load(session.id, now: 0))
        #expect(attempts.load(ordering: .relaxed) == threads * attemptsPerThread)
        #expect(!marks.isEmpty)
        #expect(last.revision == session.revision + marks.count)
        // Each success appended to the state it read, so the final list is exactly the
        // successful writes (a lost update would drop one).
        #expect(last.customizationStart?.count == marks.count)
        #expect(Set(last.customizationStart ?? []) == Set(marks))
    }

    @Test("retrying until success makes every writer's change land")
    func retryLoop() throws {
        let store = MemorySessionStore()
        let session = Session.new(now: 0)
        store.insert(session)
        let threads = 4
        let writesPerThread = 100
        let conflicts = Atomic<Int>(0)

        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for write in 0..<writesPerThread {
                while true {
                    guard var copy = store.load(session.id, now: 0) else { return }
                    copy.state.locations["t\(thread)"] = "\(write)"
                    if store.update(copy) != nil { break }
                    conflicts.add(1, ordering: .relaxed)
                }
            }
        }

        let last = try #require(store.load(session.id, now: 0))
        #expect(last.revision == session.revision + threads * writesPerThread)
        for thread in 0..<threads {
            #expect(last.state.locations["t\(thread)"] == "\(writesPerThread - 1)")
        }
    }

    @Test("inserts and loads from many threads keep the store within capacity")
    func concurrentInserts() {
        let store = MemorySessionStore(capacity: 500)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<400 {
                let session = Session.new(now: Int64(thread * 1_000 + index))
                store.insert(session)
                _ = store.load(session.id, now: Int64(thread * 1_000 + index))
            }
        }
        #expect(store.count <= 500)
        #expect(store.count > 0)
    }
}
