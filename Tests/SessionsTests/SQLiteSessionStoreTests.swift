// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerSQLite
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTabBar
import TabServerTesting
import Testing

@Suite("SQLite session store on a real file")
struct SQLiteSessionStoreTests {
    func freshPath() -> String { TestFixtures.temporaryDirectory("sqlite") + "/nested/sessions.sqlite" }

    func session(now: Int64 = 1_000) -> Session {
        var session = Session.new(now: now)
        session.state.selectedTabID = "music"
        session.state.locations = ["music": "albums/2"]
        session.language = "de"
        session.notice = Notice(message: "Hallo", confirmTabID: "tv")
        session.customizationStart = ["a", "b"]
        return session
    }

    @Test("creates its folder, WAL mode and the current schema version")
    func schema() throws {
        let path = freshPath()
        _ = try SQLiteSessionStore(path: path)
        let db = try SQLiteDatabase(path: path)
        #expect(try db.userVersion == SQLiteSessionStore.schemaVersion)
        #expect(try db.query("PRAGMA journal_mode").first?.first == .text("wal"))
        #expect(try db.query("PRAGMA page_size").first?.first == .integer(1024), "small pages for small rows")
    }

    @Test("refuses a file whose schema is newer than it knows")
    func newerSchema() throws {
        let path = freshPath()
        _ = try SQLiteSessionStore(path: path)
        try SQLiteDatabase(path: path).execute("PRAGMA user_version = 99")
        #expect(throws: SessionStoreError.self) { _ = try SQLiteSessionStore(path: path) }
    }

    @Test("every field survives a reopen (a server restart)")
    func survivesReopen() throws {
        let path = freshPath()
        let original = session()
        do {
            let store = try SQLiteSessionStore(path: path)
            try store.insert(original)
        }
        let reopened = try SQLiteSessionStore(path: path)
        let loaded = try #require(try reopened.load(original.id, now: 1_010))
        #expect(loaded.csrfToken == original.csrfToken)
        #expect(loaded.state == original.state)
        #expect(loaded.language == "de")
        #expect(loaded.notice == original.notice)
        #expect(loaded.customizationStart == ["a", "b"])
        #expect(loaded.created == 1_000)
        #expect(loaded.revision == 0)
        #expect(try reopened.load(SessionID.generate(), now: 1_010) == nil)
    }

    @Test("updates are compare-and-set on the revision, in the file and in memory")
    func compareAndSet() throws {
        let path = freshPath()
        let store = try SQLiteSessionStore(path: path)
        var first = session()
        try store.insert(first)
        first.state.selectedTabID = "tv"
        let stored = try #require(try store.update(first))
        #expect(stored.revision == 1)
        var stale = first
        stale.state.selectedTabID = "movies"
        #expect(try store.update(stale) == nil, "revision 0 is gone")
        #expect(try store.load(first.id, now: 1_000)?.state.selectedTabID == "tv")
        try store.flush()
        let inFile = try store.fileRow(first.id)
        #expect(inFile?.revision == 1)
        #expect(inFile?.state.selectedTabID == "tv")
    }

    @Test("a second store on the same file is refused: the cache relies on one writer")
    func oneWriter() throws {
        let path = freshPath()
        let first = try SQLiteSessionStore(path: path)
        try first.insert(session())
        try first.flush()
        // Refused with SQLite's own reason (the file is locked), not left waiting for it.
        let refusal = #expect(throws: SessionStoreError.self) { _ = try SQLiteSessionStore(path: path) }
        #expect(refusal?.description.contains("locked") == true, "\(String(describing: refusal))")
        #expect(try first.count() == 1, "the owner goes on working")
    }

    @Test("group commit: writes take effect at once, reach the file together, and tell who waits")
    func groupCommit() throws {
        let store = try SQLiteSessionStore(path: freshPath())
        var sessions = (0..<50).map { _ in session() }
        for item in sessions { try store.insert(item) }
        for index in sessions.indices {
            sessions[index].state.selectedTabID = "tab\(index)"
            sessions[index] = try #require(try store.update(sessions[index]))
            #expect(try store.load(sessions[index].id, now: 1_000)?.state.selectedTabID == "tab\(index)")
        }
        let heard = Mutex<[SessionStoreError?]>([])
        let semaphore = DispatchSemaphore(value: 0)
        let waiting = store.whenDurable([sessions[49].id]) { error in
            heard.withLock { $0.append(error) }
            semaphore.signal()
        }
        if waiting { semaphore.wait() }
        // Once told, the last write and every one before it is in the file.
        for (index, item) in sessions.enumerated() {
            let row = try #require(try store.fileRow(item.id))
            #expect(row.revision == 1)
            #expect(row.state.selectedTabID == "tab\(index)")
        }
        #expect(heard.withLock { $0.allSatisfy { $0 == nil } })
        #expect(store.whenDurable([sessions[0].id]) { _ in } == false, "nothing left to wait for")
    }

    @Test("idle and absolute expiry, and the sweep removes expired rows")
    func expiry() throws {
        let store = try SQLiteSessionStore(path: freshPath(), lifetime: SessionLifetime(idle: 100, absolute: 1_000))
        let old = session(now: 1_000)
        let young = session(now: 1_050)
        try store.insert(old)
        try store.insert(young)
        #expect(try store.count() == 2)
        #expect(try store.sweep(now: 1_120) == 1)
        #expect(try store.load(old.id, now: 1_120) == nil)
        #expect(try store.load(young.id, now: 1_120) != nil)
        #expect(try store.load(young.id, now: 2_100) == nil, "past the absolute lifetime even if used")
        #expect(try store.integrityCheck())
    }

    @Test("a row that cannot be decoded reads as absent, not as an error")
    func garbage() throws {
        let path = freshPath()
        _ = try SQLiteSessionStore(path: path)  // creates the schema, then lets the file go
        let id = SessionID.generate()
        try SQLiteDatabase(path: path).query(
            "INSERT INTO sessions (id, revision, data, created, last_seen) VALUES (?, 0, ?, 1000, 1000)",
            [.blob(id.bytes), .blob(Array("not json".utf8))])
        let store = try SQLiteSessionStore(path: path)
        #expect(try store.load(id, now: 1_000) == nil)
    }

    @Test("an unwritable location fails with a message naming it")
    func unwritable() {
        #expect {
            _ = try SQLiteSessionStore(path: "/proc/tabserver-test/sessions.sqlite")
        } throws: { error in
            (error as? SessionStoreError)?.reason.contains("/proc/tabserver-test") == true
        }
    }
}
