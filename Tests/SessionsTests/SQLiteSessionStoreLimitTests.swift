// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTesting
import Testing

/// The SQLite file has a maximum, like the memory store, with the least
/// recently used sessions going first.
@Suite("SQLite session store: a maximum with least-recently-used eviction")
struct SQLiteSessionStoreLimitTests {
    func freshPath() -> String { TestFixtures.temporaryDirectory("sqlite-limit") + "/sessions.sqlite" }

    @Test("inserting beyond the maximum removes the least recently used; the row count never exceeds it")
    func evictsLeastRecentlyUsed() throws {
        let store = try SQLiteSessionStore(path: freshPath(), maxSessions: 3)
        let a = Session.new(now: 1_000)
        let b = Session.new(now: 2_000)
        let c = Session.new(now: 3_000)
        for session in [a, b, c] { try store.insert(session) }
        #expect(try store.count() == 3)
        // A use more than a minute later records it: `a` is now the most recently used.
        #expect(try store.load(a.id, now: 4_000) != nil)
        try store.insert(Session.new(now: 5_000))
        #expect(try store.count() == 3)
        #expect(try store.load(b.id, now: 5_000) == nil, "the least recently used went first")
        #expect(try store.load(a.id, now: 5_000) != nil)
        #expect(try store.load(c.id, now: 5_000) != nil)
        for second in 0..<50 {
            try store.insert(Session.new(now: 6_000 + Int64(second) * 100))
            #expect(try store.count() <= 3)
        }
        #expect(try store.integrityCheck())
    }

    @Test("an evicted session is gone from the in-memory copy too: its update is refused")
    func evictedFromCache() throws {
        let store = try SQLiteSessionStore(path: freshPath(), maxSessions: 1)
        let first = Session.new(now: 1_000)
        try store.insert(first)
        var copy = try #require(try store.load(first.id, now: 1_000))
        try store.insert(Session.new(now: 2_000))
        try store.flush()  // the eviction happens in the insert's commit
        #expect(try store.load(first.id, now: 2_000) == nil)
        copy.language = "de"
        #expect(try store.update(copy) == nil, "no write to a row that is gone")
        #expect(try store.count() == 1)
    }

    @Test("the count survives reopening: a full file stays full, not over")
    func reopen() throws {
        let path = freshPath()
        do {
            let store = try SQLiteSessionStore(path: path, maxSessions: 5)
            for index in 0..<5 { try store.insert(Session.new(now: 1_000 + Int64(index))) }
        }
        do {
            let reopened = try SQLiteSessionStore(path: path, maxSessions: 5)
            for index in 0..<5 { try reopened.insert(Session.new(now: 2_000 + Int64(index))) }
            #expect(try reopened.count() == 5)
        }
        // A smaller maximum than the file holds: the next insert brings it down to it.
        let smaller = try SQLiteSessionStore(path: path, maxSessions: 2)
        try smaller.insert(Session.new(now: 3_000))
        #expect(try smaller.count() == 2)
    }

    @Test("a large maximum evicts in batches of at most 1,000 rows, so no insert runs long")
    func batchBound() throws {
        let store = try SQLiteSessionStore(path: freshPath(), maxSessions: 32)
        for index in 0..<32 { try store.insert(Session.new(now: 1_000 + Int64(index))) }
        try store.insert(Session.new(now: 2_000))
        // A sixteenth of 32 is 2: two rows made room for one.
        #expect(try store.count() == 31)
    }
}
