// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@Suite("RedisSessionStore under concurrent updates")
struct RedisSessionStoreConcurrencyTests {
    let redis: RedisServer

    init() throws {
        redis = try RedisServer()
    }

    @Test("two clients × 200 updates from several threads, retrying on conflict: nothing is lost")
    func twoClients() throws {
        // Two stores with their own clients stand for two server instances.
        let stores = [try RedisSessionStore(url: redis.url), try RedisSessionStore(url: redis.url)]
        let session = Session.new(now: 0)
        try stores[0].insert(session)
        let updatesPerClient = 200
        let threadsPerClient = 3
        let successes = Atomic<Int>(0)
        let conflicts = Atomic<Int>(0)
        let failures = Mutex<[String]>([])
        let deadline = ContinuousClock.now + .seconds(60)

        RedisTestHelpers.onThreads(2 * threadsPerClient) { index in
            let client = index % 2
            let thread = index / 2
            let store = stores[client]
            let mark = "c\(client)-t\(thread)"
            // This thread's share of its client's 200 updates.
            let quota = updatesPerClient / threadsPerClient + (thread < updatesPerClient % threadsPerClient ? 1 : 0)
            for _ in 0..<quota {
                while ContinuousClock.now < deadline {
                    do {
                        guard var copy = try store.load(session.id, now: 0) else {
                            failures.withLock { $0.append("\(mark): session vanished") }
                            return
                        }
                        copy.state.locations[mark] = String(Int(copy.state.locations[mark] ?? "0")! + 1)
                        if try store.update(copy) != nil {
                            successes.add(1, ordering: .relaxed)
                            break
                        }
                        conflicts.add(1, ordering: .relaxed)
                    } catch {
                        failures.withLock { $0.append("\(mark): \(error)") }
                        return
                    }
                }
            }
        }

        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0 })")
        let accepted = successes.load(ordering: .relaxed)
        #expect(accepted == 2 * updatesPerClient)
        let last = try #require(try stores[1].load(session.id, now: 0))
        #expect(last.revision == accepted)
        for index in 0..<(2 * threadsPerClient) {
            let thread = index / 2
            let quota = updatesPerClient / threadsPerClient + (thread < updatesPerClient % threadsPerClient ? 1 : 0)
            #expect(last.state.locations["c\(index % 2)-t\(thread)"] == String(quota))
        }
        let total = last.state.locations.values.reduce(0) { $0 + Int($1)! }
        #expect(total == accepted, "every accepted change is in the final state")
        print("RedisSessionStore two clients: \(accepted) updates, \(conflicts.load(ordering: .relaxed)) conflicts")
    }

    @Test("10 threads hammering load and update: no crash, no corruption, revision counts the writes")
    func hammer() throws {
        let store = try RedisSessionStore(url: redis.url)
        let sessions = (0..<3).map { _ in Session.new(now: 0) }
        for session in sessions { try store.insert(session) }
        let successes = Mutex<[Int]>([0, 0, 0])
        let errors = Atomic<Int>(0)

        RedisTestHelpers.onThreads(10) { thread in
            var generator = SystemRandomNumberGenerator()
            for step in 0..<150 {
                let which = Int.random(in: 0..<sessions.count, using: &generator)
                do {
                    guard var copy = try store.load(sessions[which].id, now: Int64(step)) else {
                        errors.add(1, ordering: .relaxed)
                        continue
                    }
                    if Bool.random(using: &generator) { continue }  // a read-only request
                    copy.state.locations["n"] = String(Int(copy.state.locations["n"] ?? "0")! + 1)
                    copy.state.selectedTabID = "tab\(thread)"
                    copy.notice = Notice(message: "from \(thread) at \(step)")
                    if try store.update(copy) != nil {
                        successes.withLock { $0[which] += 1 }
                    }
                } catch {
                    errors.add(1, ordering: .relaxed)
                }
            }
        }

        #expect(errors.load(ordering: .relaxed) == 0)
        let counts = successes.withLock { $0 }
        for (index, session) in sessions.enumerated() {
            let last = try #require(try store.load(session.id, now: 200))
            #expect(last.revision == counts[index])
            // Each write added one to what it read; a lost update would leave n short.
            #expect(last.state.locations["n"] == (counts[index] == 0 ? nil : String(counts[index])))
            #expect(last.csrfToken == session.csrfToken)
            #expect(last.created == session.created)
        }
        #expect(counts.reduce(0, +) > 0)
    }
}
