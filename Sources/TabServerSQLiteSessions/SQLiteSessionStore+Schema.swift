// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

/// The file's schema and its migrations.
extension SQLiteSessionStore {
    /// Each step takes the schema from version N-1 to N, in one transaction.
    static let migrations: [String] = [
        """
        CREATE TABLE sessions (
            id BLOB PRIMARY KEY,
            revision INTEGER NOT NULL,
            data BLOB NOT NULL,
            created INTEGER NOT NULL,
            last_seen INTEGER NOT NULL
        ) WITHOUT ROWID;
        CREATE INDEX sessions_last_seen ON sessions (last_seen);
        CREATE INDEX sessions_created ON sessions (created);
        """,
        // One row the health probe rewrites to find out whether writes succeed again.
        """
        CREATE TABLE probe (id INTEGER PRIMARY KEY CHECK (id = 1), at INTEGER NOT NULL);
        """,
        // An integer key (the rowid) beside the id: the writer's UPDATE finds its row by an
        // integer seek instead of comparing 16-byte blob keys at each level (the seek is a
        // large part of the writer's work); the id stays unique, for loads, through its
        // index.
        """
        CREATE TABLE sessions_keyed (
            key INTEGER PRIMARY KEY,
            id BLOB NOT NULL UNIQUE,
            revision INTEGER NOT NULL,
            data BLOB NOT NULL,
            created INTEGER NOT NULL,
            last_seen INTEGER NOT NULL
        );
        INSERT INTO sessions_keyed (id, revision, data, created, last_seen)
            SELECT id, revision, data, created, last_seen FROM sessions;
        DROP TABLE sessions;
        ALTER TABLE sessions_keyed RENAME TO sessions;
        CREATE INDEX sessions_last_seen ON sessions (last_seen);
        CREATE INDEX sessions_created ON sessions (created);
        """,
        // Admission: where each session stands (0 on probation, 1 established, 2 a user's
        // record). Sessions kept before it are established (their visitors may well come
        // back); users' records are told by their token, all zero bytes (format 2 keeps
        // it in bytes 2 to 17). Eviction reads probationary rows oldest first (by key),
        // established ones and users' least recently seen first, each through an index
        // of its own; a probationary row's `last_seen` is its `created`.
        """
        ALTER TABLE sessions ADD COLUMN standing INTEGER NOT NULL DEFAULT 1;
        UPDATE sessions SET standing = 2 WHERE substr(data, 1, 1) = x'02' AND substr(data, 2, 16) = zeroblob(16);
        DROP INDEX sessions_last_seen;
        CREATE INDEX sessions_probationary ON sessions (key) WHERE standing = 0;
        CREATE INDEX sessions_established_seen ON sessions (last_seen) WHERE standing = 1;
        CREATE INDEX sessions_user_seen ON sessions (last_seen) WHERE standing = 2;
        """,
    ]

    static func migrate(_ db: SQLiteDatabase) throws(SQLiteError) {
        let current = try db.userVersion
        guard current <= migrations.count else {
            throw SQLiteError(
                code: 0, message: "schema version \(current) is newer than this server knows (\(migrations.count))",
                operation: "open \(db.path)")
        }
        for version in current..<migrations.count {
            try db.execute("BEGIN IMMEDIATE")
            do {
                try db.execute(migrations[version])
                try db.execute("PRAGMA user_version = \(version + 1)")
                try db.execute("COMMIT")
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
    }
}
