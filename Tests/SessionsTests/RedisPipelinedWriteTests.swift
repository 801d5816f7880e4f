// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

/// Writes sent through the store's pipeline (`update(_:then:)`), as the app sends an
/// anonymous visitor's changes. Each test gets a fresh `redis-server`.
@Suite("RedisSessionStore: pipelined writes")
struct RedisPipelinedWriteTests {
    let redis: RedisServer
    let store: RedisSessionStore

    init() throws {
        redis = try RedisServer()
        store = try RedisSessionStore(url: redis.url)
    }

    /// `update(_:then:)`, waited for; nil when the store declined and the synchronous
    /// `update` (what the app falls back to) was used instead.
    func write(_ session: Session, on store: RedisSessionStore) throws -> Session? {
        let outcome = Mutex<Result<Session?, SessionStoreError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let sent = store.update(session) { result in
            outcome.withLock { $0 = result }
            done.signal()
        }
        guard sent else { return try store.update(session) }
        done.wait()
        return try #require(outcome.withLock { $0 }).get()
    }

    /// Holds every Redis answer for 400 ms (`CLIENT PAUSE`; calls time out at 500), so
    /// what the test does next happens before the write it sends is answered, however
    /// loaded the machine is.
    func holdRedis() throws {
        _ = try store.client.command(["CLIENT", "PAUSE", "400", "ALL"])
    }

    @Test("quick writes of one session chain in the pipeline: each builds on the last, all land")
    func chained() throws {
        let session = Session.new(now: 0)
        try store.insert(session)
        var copy = try #require(try store.load(session.id, now: 1))
        let outcomes = Mutex<[Bool]>([])
        let group = DispatchGroup()
        for round in 0..<20 {
            copy.state.locations["music"] = "albums/\(round)"
            group.enter()
            // Not waited for: the next write rests on this one's copy before Redis answered.
            let sent = store.update(copy) { result in
                outcomes.withLock { $0.append((try? result.get()) != nil) }
                group.leave()
            }
            #expect(sent)
            copy = try #require(try store.loadOptimistically(session.id, now: 1))
            #expect(copy.revision == round + 1, "the next request sees this write at once")
        }
        group.wait()
        #expect(outcomes.withLock { $0.count == 20 && $0.allSatisfy { $0 } })
        let other = try RedisSessionStore(url: redis.url)
        let stored = try #require(try other.load(session.id, now: 2))
        #expect(stored.revision == 20)
        #expect(stored.state.locations["music"] == "albums/19")
    }

    /// Another instance wrote the session first (revision 1, language "theirs"); this
    /// instance then sent a write from its revision-0 copy (language "first"), which Redis
    /// holds back (`holdRedis`) and will refuse.
    final class LosingWrite: Sendable {
        let other: RedisSessionStore
        let session: Session
        let answer = Mutex<Session??>(nil)
        let answered = DispatchSemaphore(value: 0)

        init(other: RedisSessionStore, session: Session) {
            self.other = other
            self.session = session
        }

        /// Waits for Redis's answer to the losing write (nil: refused).
        func refusal() -> Session?? {
            answered.wait()
            return answer.withLock { $0 }
        }
    }

    /// The losing write, and the copy a next request takes: that unconfirmed write,
    /// revision 1 like theirs.
    func sendLosingWrite() throws -> (race: LosingWrite, built: Session) {
        let race = LosingWrite(other: try RedisSessionStore(url: redis.url), session: Session.new(now: 0))
        try store.insert(race.session)
        var mine = try #require(try store.load(race.session.id, now: 1))
        var theirs = try #require(try race.other.load(race.session.id, now: 1))
        theirs.language = "theirs"
        _ = try #require(try race.other.update(theirs))
        mine.language = "first"
        try holdRedis()
        #expect(
            store.update(mine) { result in
                race.answer.withLock { $0 = .some(try? result.get()) }
                race.answered.signal()
            })
        let built = try #require(try store.loadOptimistically(race.session.id, now: 1))
        #expect(built.language == "first" && built.revision == 1)
        return (race, built)
    }

    @Test("a write chained behind one that loses to another instance loses too, even at the same revision")
    func chainedBehindALoser() throws {
        let (race, losing) = try sendLosingWrite()
        var built = losing
        // Built on the losing write: it must lose too, whenever it is sent.
        built.state.selectedTabID = "tv"
        #expect(try write(built, on: store) == nil, "resting on a write that was refused")
        #expect(race.refusal() == .some(nil))
        let stored = try #require(try race.other.load(race.session.id, now: 2))
        #expect(stored.language == "theirs")
        #expect(stored.state.selectedTabID != "tv")
        // The refused copy is never served again: the next load is Redis's.
        #expect(try store.loadOptimistically(race.session.id, now: 2)?.language == "theirs")
    }

    @Test("a copy built on a refused write loses even after the refusal was forgotten and the stored copy reloaded")
    func builtOnALoserAfterReload() throws {
        let (race, losing) = try sendLosingWrite()
        var built = losing
        // The refusal arrives, and another request of the session reloads Redis's copy.
        #expect(race.refusal() == .some(nil))
        #expect(try store.load(race.session.id, now: 1)?.language == "theirs")
        built.state.selectedTabID = "tv"
        #expect(try store.update(built) == nil, "the synchronous write rests on the refused copy")
        #expect(try write(built, on: store) == nil, "so does a pipelined one")
        let stored = try #require(try race.other.load(race.session.id, now: 2))
        #expect(stored.language == "theirs" && stored.revision == 1)
        #expect(stored.state.selectedTabID != "tv")
    }

    @Test("after Redis forgets its scripts, a pipelined write counts as lost (never overtaken) and the next lands")
    func scriptsFlushed() throws {
        let session = Session.new(now: 0)
        try store.insert(session)
        var copy = try #require(try store.load(session.id, now: 1))
        for language in ["a", "b"] {  // the first sends the script, the second its hash
            copy.language = language
            _ = try #require(try write(copy, on: store))
            copy = try #require(try store.loadOptimistically(session.id, now: 1))
        }
        _ = try store.client.command(["SCRIPT", "FLUSH"])
        copy.language = "c"
        #expect(try write(copy, on: store) == nil, "NOSCRIPT: lost, so its request runs again")
        copy = try #require(try store.loadOptimistically(session.id, now: 1))
        #expect(copy.language == "b")
        copy.language = "d"
        #expect(try write(copy, on: store)?.language == "d")
        #expect(try RedisSessionStore(url: redis.url).load(session.id, now: 2)?.language == "d")
    }
}
