// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerTesting
import Testing

@testable import TabServerSQLiteSessions
@testable import TabServerSessions

/// Files written by an earlier version open, migrated, with every session intact.
@Suite("SQLite session store schema migration")
struct SQLiteSessionStoreMigrationTests {
    func session(tab: String) -> Session {
        var session = Session.new(now: 1_000)
        session.state.selectedTabID = tab
        session.state.locations = [tab: "\(tab)/1"]
        return session
    }

    /// A file as schema version 2 left it (sessions keyed by their id blob alone).
    func versionTwoFile(with sessions: [Session]) throws -> String {
        let path = TestFixtures.temporaryDirectory("sqlite-migration") + "/sessions.sqlite"
        let db = try SQLiteDatabase(path: path)
        try db.execute("PRAGMA page_size = 1024")
        try db.execute("PRAGMA journal_mode = WAL")
        for step in SQLiteSessionStore.migrations.prefix(2) { try db.execute(step) }
        try db.execute("PRAGMA user_version = 2")
        for session in sessions {
            try db.query(
                "INSERT INTO sessions (id, revision, data, created, last_seen) VALUES (?, ?, ?, ?, ?)",
                [
                    .blob(session.id.bytes), .integer(Int64(session.revision)), .blob(SessionCodec.encode(session)),
                    .integer(session.created), .integer(session.lastSeen),
                ])
        }
        #expect(try db.query("SELECT count(*) FROM sessions").first?.first == .integer(Int64(sessions.count)))
        return path
    }

    @Test("version 2 to 3: sessions keep their data, take updates by key, and new rows get fresh keys")
    func keyedRows() throws {
        let music = session(tab: "music")
        let tv = session(tab: "tv")
        let path = try versionTwoFile(with: [music, tv])
        let added = session(tab: "movies")
        do {
            let store = try SQLiteSessionStore(path: path)
            let loaded = try #require(try store.load(music.id, now: 1_010))
            #expect(loaded.state == music.state)
            var changed = loaded
            changed.state.selectedTabID = "featured"
            #expect(try store.update(changed)?.revision == 1)
            try store.insert(added)
            try store.flush()
        }
        do {
            // (Closed before the store reopens: it takes the file for itself.)
            let db = try SQLiteDatabase(path: path)
            #expect(try db.userVersion == SQLiteSessionStore.schemaVersion)
            let keys = try db.query("SELECT key FROM sessions ORDER BY key").compactMap { $0.first?.integer }
            #expect(keys.count == 3)
            #expect(Set(keys).count == 3, "distinct keys")
            #expect(try db.query("PRAGMA integrity_check").first?.first == .text("ok"))
        }
        let reopened = try SQLiteSessionStore(path: path)
        #expect(try reopened.fileRow(music.id)?.state.selectedTabID == "featured")
        #expect(try reopened.fileRow(music.id)?.revision == 1)
        #expect(try reopened.fileRow(tv.id)?.state == tv.state, "the other row is untouched")
        #expect(try reopened.fileRow(added.id)?.state == added.state)
        // A row inserted after reopening gets a key above the ones in the file.
        let later = session(tab: "tv")
        try reopened.insert(later)
        var laterChanged = try #require(try reopened.load(later.id, now: 1_020))
        laterChanged.state.selectedTabID = "music"
        _ = try reopened.update(laterChanged)
        try reopened.flush()
        #expect(try reopened.fileRow(later.id)?.state.selectedTabID == "music")
        #expect(try reopened.count() == 4)
    }
}
