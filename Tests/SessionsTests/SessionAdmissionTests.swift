// SPDX-License-Identifier: Apache-2.0
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTesting
import Testing

/// A flood of one-shot sessions against a small store: returning visitors and users'
/// records keep their state, and only the flood's own sessions are evicted.
@Suite("Session admission: a flood of one-shot sessions evicts only its own kind")
struct SessionAdmissionTests {
    /// What a flood left: returning visitors whose session is gone, and the store's counts.
    struct Outcome {
        var lost = 0
        var admission = SessionAdmissionCounts()
    }

    /// `visitors` sessions stored and loaded again (returning visitors), then `flood`
    /// one-shot sessions at `perSecond` (simulated seconds), the visitors coming back once
    /// a simulated second — more rarely than the flood turns a store of `capacity` over.
    /// `settle` runs every 500 inserts (a durable store's commit).
    static func flood(
        _ store: any EngineSessionStore, visitors: Int = 50, flood: Int, perSecond: Int, start: Int64 = 1_000,
        settle: () throws -> Void = {}
    ) throws -> (Outcome, [Session]) {
        var returning: [Session] = []
        for index in 0..<visitors {
            var session = Session.new(now: start)
            session.state.selectedTabID = "tab\(index)"
            try store.insert(session)
            returning.append(try #require(try store.load(session.id, now: start)))
        }
        try settle()
        var outcome = Outcome()
        for index in 0..<flood {
            let now = start + Int64(index / perSecond)
            try store.insert(Session.new(now: now))
            if index % perSecond == perSecond - 1 {
                for visitor in returning { _ = try store.load(visitor.id, now: now) }
            }
            if index % 500 == 499 { try settle() }
        }
        try settle()
        let end = start + Int64(flood / perSecond)
        for visitor in returning {
            if try store.load(visitor.id, now: end)?.state.selectedTabID != visitor.state.selectedTabID {
                outcome.lost += 1
            }
        }
        outcome.admission = store.admission
        return (outcome, returning)
    }

    @Test("memory: 0 of 50 returning visitors lose their state to a flood that turns the store over every half second")
    func memoryFlood() throws {
        let store = MemorySessionStore(capacity: 2_000)
        let (outcome, _) = try Self.flood(store, flood: 40_000, perSecond: 4_000)
        #expect(outcome.lost == 0)
        #expect(outcome.admission.evictedEstablished == 0)
        #expect(outcome.admission.evictedProbationary >= 38_000)
        #expect(outcome.admission.promoted == 50)
        #expect(outcome.admission.created == 40_050)
        #expect(store.count <= 2_000)
    }

    @Test("SQLite file: 0 of 50 returning visitors lose their state to the same flood")
    func sqliteFlood() throws {
        let path = TestFixtures.temporaryDirectory("admission") + "/sessions.sqlite"
        let store = try SQLiteSessionStore(path: path, maxSessions: 2_000)
        let (outcome, returning) = try Self.flood(store, flood: 40_000, perSecond: 4_000) { try store.flush() }
        #expect(outcome.lost == 0)
        #expect(outcome.admission.evictedEstablished == 0)
        #expect(outcome.admission.evictedProbationary >= 38_000)
        #expect(try store.count() <= 2_000)
        for visitor in returning {
            #expect(try store.fileStanding(visitor.id) == .established)
        }
    }

    @Test("a user's record outlives an anonymous flood, and users have a budget of their own")
    func usersApart() throws {
        let store = MemorySessionStore(capacity: 100)
        var record = Session.userRecord("ada", now: 1_000)
        record.state.order = ["b", "a"]
        store.insert(record)
        for index in 0..<5_000 { store.insert(Session.new(now: 1_000 + Int64(index / 100))) }
        #expect(store.load(record.id, now: 1_050)?.state.order == ["b", "a"])
        #expect(store.standing(of: record.id) == .user)
        #expect(store.admission.evictedUsers == 0)
        // Users alone past their own budget: the least recently seen user goes.
        for index in 0..<100 { store.insert(.userRecord("user\(index)", now: 2_000 + Int64(index))) }
        #expect(store.admission.evictedUsers >= 1)
        #expect(store.load(record.id, now: 3_000) == nil, "ada was seen least recently")
        #expect(store.count <= 200)
    }

    @Test("a store full of established sessions keeps a tenth for newcomers, who are then evicted oldest first")
    func probationReserve() throws {
        let store = MemorySessionStore(capacity: 100)
        var established: [SessionID] = []
        for index in 0..<100 {
            let session = Session.new(now: 1_000 + Int64(index))
            store.insert(session)
            _ = store.load(session.id, now: 1_000 + Int64(index))
            established.append(session.id)
        }
        #expect(store.admission.promoted == 100)
        // Newcomers make room among the least recently seen established sessions until a
        // tenth of the store is on probation (a batch at a time: at least one each).
        var newcomers: [SessionID] = []
        for index in 0..<10 {
            let session = Session.new(now: 2_000 + Int64(index))
            store.insert(session)
            newcomers.append(session.id)
        }
        let evictedBefore = store.admission.evictedEstablished
        #expect(evictedBefore >= 1 && evictedBefore <= 10)
        #expect(store.load(established[0], now: 2_100) == nil, "the least recently seen went first")
        #expect(store.load(established[99], now: 2_100) != nil)
        // From then on a newcomer evicts the oldest newcomer, not an established session.
        let first = try #require(newcomers.first)
        for index in 0..<5 { store.insert(Session.new(now: 3_000 + Int64(index))) }
        #expect(store.admission.evictedEstablished == evictedBefore)
        #expect(store.standing(of: first) == nil, "the oldest newcomer was evicted")
        #expect(store.standing(of: newcomers[9]) == .probationary)
    }

    @Test(
        "SQLite: a restart in the middle of a flood keeps established sessions established and newcomers on probation")
    func restartMidFlood() throws {
        let path = TestFixtures.temporaryDirectory("admission-restart") + "/sessions.sqlite"
        var returning: [Session] = []
        var oneShot: [SessionID] = []
        do {
            let store = try SQLiteSessionStore(path: path, maxSessions: 1_000)
            for index in 0..<20 {
                var session = Session.new(now: 1_000)
                session.language = "x\(index)"
                try store.insert(session)
                returning.append(try #require(try store.load(session.id, now: 1_001)))
            }
            for index in 0..<1_500 {
                let session = Session.new(now: 1_002 + Int64(index / 500))
                try store.insert(session)
                oneShot.append(session.id)
            }
            try store.flush()
        }
        let store = try SQLiteSessionStore(path: path, maxSessions: 1_000)
        for visitor in returning { #expect(try store.fileStanding(visitor.id) == .established) }
        let kept = try #require(oneShot.last)
        #expect(try store.fileStanding(kept) == .probationary)
        for index in 0..<3_000 { try store.insert(Session.new(now: 2_000 + Int64(index / 500))) }
        try store.flush()
        for visitor in returning { #expect(try store.load(visitor.id, now: 2_010)?.language == visitor.language) }
        #expect(store.admission.evictedEstablished == 0)
        #expect(try store.fileStanding(kept) == nil, "the flood's sessions went first, the old ones before the new")
    }
}
