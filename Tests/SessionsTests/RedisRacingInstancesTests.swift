// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Glibc
import Synchronization
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// Two instances on one Redis racing compare-and-set writes of the same few sessions:
/// pipelined writes chained on unconfirmed copies, synchronous writes, and reloads in
/// between (which make an instance forget what it knew of its own refused writes).
///
/// Each write records its own mark and the mark of the copy it was built on. Every
/// acknowledged write moved the revision on by one, so for a session the acknowledged
/// write at revision r must have been built on the acknowledged write at r - 1: if it
/// was built on anything else, the write at r - 1 was overwritten, a lost update.
@Suite("RedisSessionStore: two instances racing")
struct RedisRacingInstancesTests {
    struct Acknowledged: Sendable {
        let session: SessionID
        let revision: Int
        let mark: String
        let builtOn: String
    }

    @Test("no acknowledged write is ever overwritten, pipelined, chained or synchronous")
    func racing() throws {
        let redis = try RedisServer()
        let instances = [try RedisSessionStore(url: redis.url), try RedisSessionStore(url: redis.url)]
        let sessions = [Session.new(now: 0)]
        for session in sessions { try instances[0].insert(session) }
        let acknowledged = Mutex<[Acknowledged]>([])
        let errors = Mutex<[String]>([])
        let callbacks = DispatchGroup()
        let refusedPipelined = Atomic<Int>(0)
        let workers = DispatchGroup()
        for (index, store) in instances.enumerated() {
            for worker in 0..<3 {
                workers.enter()
                DispatchQueue.global().async {
                    defer { workers.leave() }
                    var random = SplitMix(seed: UInt64(index * 10 + worker + 1))
                    for step in 0..<900 {
                        // Three quick writes of one session in a row, each built on the last.
                        let id = sessions[Int(random.next() % UInt64(sessions.count))].id
                        let mark = "\(index)-\(worker)-\(step)"
                        do {
                            guard var copy = try store.loadOptimistically(id, now: 1) else {
                                errors.withLock { $0.append("\(mark): session missing") }
                                continue
                            }
                            if random.next() % 2 == 0 {
                                // Another request of the session reloads it once the write
                                // this copy rests on may have been answered.
                                usleep(UInt32(random.next() % 300))
                                _ = try store.load(id, now: 1)
                            }
                            let builtOn = copy.state.locations["mark"] ?? ""
                            copy.state.locations["mark"] = mark
                            copy.state.locations["on"] = builtOn
                            let record = { @Sendable (stored: Session) in
                                acknowledged.withLock {
                                    $0.append(
                                        Acknowledged(
                                            session: id, revision: stored.revision, mark: mark, builtOn: builtOn))
                                }
                            }
                            if random.next() % 3 == 0 {
                                if let stored = try store.update(copy) { record(stored) }
                                continue
                            }
                            callbacks.enter()
                            let sent = store.update(copy) { result in
                                defer { callbacks.leave() }
                                switch result {
                                case .success(let stored?): record(stored)
                                case .success(nil): refusedPipelined.add(1, ordering: .relaxed)
                                case .failure(let error): errors.withLock { $0.append("\(mark): \(error)") }
                                }
                            }
                            if !sent {
                                callbacks.leave()
                                if let stored = try store.update(copy) { record(stored) }
                            }
                        } catch {
                            errors.withLock { $0.append("\(mark): \(error)") }
                        }
                    }
                }
            }
        }
        #expect(workers.wait(timeout: .now() + 60) == .success, "the workers finish")
        #expect(callbacks.wait(timeout: .now() + 30) == .success, "every pipelined write is answered")
        #expect(errors.withLock { $0 }.isEmpty)
        let reader = try RedisSessionStore(url: redis.url)
        let all = acknowledged.withLock { $0 }
        var checked = 0
        for session in sessions {
            let acks = all.filter { $0.session == session.id }
            let byRevision = Dictionary(grouping: acks, by: \.revision)
            #expect(byRevision.values.allSatisfy { $0.count == 1 }, "one acknowledged write per revision")
            for ack in acks {
                if ack.revision == 1 {
                    #expect(ack.builtOn == "", "the first write rests on the inserted session")
                } else if let previous = byRevision[ack.revision - 1]?.first {
                    #expect(
                        ack.builtOn == previous.mark,
                        "\(ack.mark) at revision \(ack.revision) overwrote \(previous.mark) (built on '\(ack.builtOn)')"
                    )
                    checked += 1
                }
            }
            let stored = try #require(try reader.load(session.id, now: 2))
            let last = try #require(byRevision[stored.revision]?.first, "the stored revision was acknowledged")
            #expect(stored.state.locations["mark"] == last.mark)
        }
        let refused = refusedPipelined.load(ordering: .relaxed)
        print("racing: \(all.count) acknowledged, \(refused) pipelined refused, \(checked) checked")
        #expect(all.count > 200, "enough writes landed to race: \(all.count)")
        #expect(checked > 100)
    }
}

/// A small seeded generator, so each worker's choices repeat from run to run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
