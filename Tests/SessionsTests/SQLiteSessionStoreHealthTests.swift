// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerSQLite
import TabServerTesting
import Testing

@testable import TabServerSQLiteSessions
@testable import TabServerSessions

/// Writes that fail (a full disk, a read-only file) make the store not
/// ready, logged once, until a write succeeds again.
///
/// The failure is injected with `PRAGMA query_only` on the store's own connection
/// (`setQueryOnly`), which makes SQLite refuse every write with `SQLITE_READONLY`, as a
/// read-only file does, while reads go on. A `chmod` cannot do it: the tests run as root,
/// which ignores file permissions; and a full tmpfs needs `mount`, which CI containers
/// usually may not do.
@Suite("SQLite session store when writes fail", .serialized)
struct SQLiteSessionStoreHealthTests {
    /// Log lines, collected in memory.
    final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func log(_ message: String, _ isFailure: Bool) {
            lines.withLock { $0.append((isFailure ? "error " : "info ") + message) }
        }
    }

    func freshPath() -> String { TestFixtures.temporaryDirectory("sqlite-health") + "/sessions.sqlite" }

    @Test("read-only: every write fails, reads go on, not ready; one line down, one line up")
    func readOnly() throws {
        let lines = Lines()
        let store = try SQLiteSessionStore(path: freshPath(), log: lines.log)
        let kept = Session.new(now: 1_000)
        try store.insert(kept)
        #expect(store.checkReady())

        store.setQueryOnly(true)
        #expect(store.checkReady(), "a read alone does not notice that writes fail")
        for _ in 0..<20 {
            // Accepted here, refused by the commit: whoever waits hears it, and it is undone.
            let lost = Session.new(now: 1_000)
            try store.insert(lost)
            #expect(throws: SessionStoreError.self) { try store.flush() }
            #expect(try store.load(lost.id, now: 1_000) == nil)
        }
        var changed = kept
        changed.language = "de"
        #expect(try store.update(changed) != nil)
        #expect(throws: SessionStoreError.self) { try store.flush() }
        #expect(!store.checkReady())
        let reread = try store.load(kept.id, now: 1_000)
        #expect(reread != nil, "the session is still there: a failed write deletes nothing")
        #expect(reread?.language == nil, "reads still work; the write was undone")
        #expect(lines.all.count == 1, "\(lines.all)")
        #expect(lines.all.first?.hasPrefix("error session store sqlite:") == true)
        #expect(lines.all.first?.contains("readonly") == true, "\(lines.all)")

        // Writable again: the background probe notices without any request.
        store.setQueryOnly(false)
        #expect(waitUntil(.seconds(3), every: .milliseconds(20)) { store.checkReady() })
        #expect(lines.all.count == 2, "\(lines.all)")
        #expect(lines.all.last?.hasPrefix("info session store sqlite:") == true)
        #expect(lines.all.last?.contains("works again") == true)
        try store.insert(Session.new(now: 1_001))
        #expect(lines.all.count == 2)
    }

    @Test("the next successful write ends the outage at once")
    func writeEndsOutage() throws {
        let lines = Lines()
        let store = try SQLiteSessionStore(path: freshPath(), log: lines.log)
        store.setQueryOnly(true)
        try store.insert(Session.new(now: 1_000))
        #expect(throws: SessionStoreError.self) { try store.flush() }
        #expect(!store.checkReady())
        store.setQueryOnly(false)
        try store.insert(Session.new(now: 1_000))
        #expect(store.checkReady())
        #expect(lines.all.count == 2, "\(lines.all)")
    }

    @Test("a failed write is awaited until its request hears of it; then nothing is")
    func failedWriteIsAwaited() throws {
        let store = try SQLiteSessionStore(path: freshPath())
        var kept = Session.new(now: 1_000)
        try store.insert(kept)
        try store.flush()
        #expect(!store.awaitsCommit(kept.id), "committed: nothing to wait for")
        #expect(!store.awaitsCommit(Session.new(now: 1_000).id), "unknown: nothing to wait for")

        store.setQueryOnly(true)
        kept.language = "de"
        #expect(try store.update(kept) != nil)
        #expect(throws: SessionStoreError.self) { try store.flush() }
        // The commit failed and no request has asked yet: answering now would confirm a
        // change that was undone, so the caller must ask `whenDurable`, which reports it.
        #expect(store.awaitsCommit(kept.id))
        let heard = Mutex<[SessionStoreError?]>([])
        #expect(store.whenDurable([kept.id]) { error in heard.withLock { $0.append(error) } })
        #expect(heard.withLock { $0.count == 1 && $0[0] != nil })
        #expect(!store.awaitsCommit(kept.id), "reported once")
    }

    @Test("a write is awaited from its update until its commit")
    func writeIsAwaitedUntilCommitted() throws {
        let store = try SQLiteSessionStore(path: freshPath())
        var sessions = (0..<200).map { _ in Session.new(now: 1_000) }
        for session in sessions { try store.insert(session) }
        try store.flush()
        for index in sessions.indices {
            sessions[index].language = "ja"
            sessions[index] = try #require(try store.update(sessions[index]))
            // Whether the writer has committed it yet or not, the two views agree.
            let awaited = store.awaitsCommit(sessions[index].id)
            let asked = store.whenDurable([sessions[index].id]) { _ in }
            #expect(awaited || !asked, "whenDurable waited for a write awaitsCommit called done")
        }
        try store.flush()
        #expect(sessions.allSatisfy { !store.awaitsCommit($0.id) })
    }
}
