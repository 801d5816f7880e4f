// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import SQLite
import Synchronization

/// Sessions in an SQLite file: survive restarts and crashes, for one server instance
/// (several instances share sessions through Redis instead).
///
/// Durability: WAL with `synchronous = NORMAL`. A write is acknowledged (and the 303 sent)
/// only after its transaction is committed to the WAL, which survives the process being
/// killed at any moment; only a power loss or kernel crash may lose the last commits —
/// acceptable for preference-only state, and several times faster than `FULL`.
///
/// Reads are served from a bounded in-memory copy of recently used sessions, kept
/// coherent because this process is the only writer (each write updates both).
///
/// The file is bounded too: at most `maxSessions` rows; inserting beyond that first
/// removes the least recently used (by `last_seen`, which is kept to the minute).
///
/// Failures are watched (`health`): a failed write (disk full, read-only file) or read
/// makes `checkReady` false and is logged once; a background probe writes one row of
/// its own every second until a write succeeds again, as does any request's write.
///
/// ```swift
/// let store = try SQLiteSessionStore(path: "data/sessions.sqlite")
/// ```
public final class SQLiteSessionStore: SessionStore {
    /// The schema version this code writes; older files are migrated on open.
    public static let schemaVersion = 2

    struct Cached {
        var session: Session
        /// `last_seen` as stored in the file (refreshed at most once a minute).
        var storedLastSeen: Int64
    }

    let database: Mutex<SQLiteDatabase>
    /// Rows in `sessions`, changed only while `database` is locked.
    let rows = Atomic<Int>(0)
    let cache = Mutex<[SessionID: Cached]>([:])
    private let cacheCapacity: Int
    public let lifetime: SessionLifetime
    /// The file.
    public let path: String
    /// The most rows kept; an insert beyond it first removes the least recently used.
    public let maxSessions: Int
    /// Whether writes and reads currently succeed; logs the changes.
    public let health: StoreHealth
    /// The most rows kept unless told otherwise: about 1 GB on disk at roughly 330 bytes
    /// a row (a session of about 260 bytes, its key and two index entries).
    public static let defaultMaxSessions = 3_000_000
    /// How stale `last_seen` in the file may get before a read refreshes it.
    static let touchInterval: Int64 = 60

    /// Opens or creates the file (and its folder), switches to WAL and migrates the schema.
    /// `log` hears when the store starts failing and when it works again.
    public init(
        path: String, lifetime: SessionLifetime = SessionLifetime(), cacheCapacity: Int = 50_000,
        maxSessions: Int = SQLiteSessionStore.defaultMaxSessions, log: StoreHealth.Log? = nil
    ) throws(SessionStoreError) {
        self.path = path
        self.lifetime = lifetime
        self.cacheCapacity = max(1, cacheCapacity)
        self.maxSessions = max(1, maxSessions)
        health = StoreHealth(name: "sqlite:\(path)", probeInterval: .seconds(1), log: log)
        if let slash = path.lastIndex(of: "/") {
            let folder = String(path[..<slash])
            if !folder.isEmpty {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw SessionStoreError("cannot create the data folder '\(folder)': \(error)")
                }
            }
        }
        do {
            let db = try SQLiteDatabase(path: path)
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL")
            try Self.migrate(db)
            let count = try db.query("SELECT count(*) FROM sessions").first?.first?.integer ?? 0
            rows.store(Int(count), ordering: .relaxed)
            database = Mutex(db)
        } catch {
            throw SessionStoreError(error.description)
        }
    }

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
    ]

    private static func migrate(_ db: SQLiteDatabase) throws(SQLiteError) {
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

    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        if let cached = cache.withLock({ $0[id] }) {
            if lifetime.isExpired(cached.session, now: now) {
                try delete(id)
                return nil
            }
            if now - cached.storedLastSeen >= Self.touchInterval { try touch(id, now: now) }
            return cached.session
        }
        let rows = try run("SELECT revision, data FROM sessions WHERE id = ?", [.blob(id.bytes)])
        guard let row = rows.first, let revision = row[0].integer, let data = row[1].bytes else { return nil }
        guard var session = try? SessionCodec.decode(data, id: id, revision: Int(revision)) else { return nil }
        if lifetime.isExpired(session, now: now) {
            try delete(id)
            return nil
        }
        let storedLastSeen = session.lastSeen
        session.lastSeen = now
        remember(session, storedLastSeen: storedLastSeen)
        if now - storedLastSeen >= Self.touchInterval { try touch(id, now: now) }
        return session
    }

    /// Stores a new session; when the file holds `maxSessions` rows, the least recently
    /// used go first, in the same transaction.
    public func insert(_ session: Session) throws(SessionStoreError) {
        let evicted = try write { db throws(SQLiteError) -> [SessionID] in
            try db.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                let evicted = try evictLeastRecentlyUsed(db)
                try db.query(
                    "INSERT INTO sessions (id, revision, data, created, last_seen) VALUES (?, ?, ?, ?, ?)",
                    [
                        .blob(session.id.bytes), .integer(Int64(session.revision)),
                        .blob(SessionCodec.encode(session)), .integer(session.created), .integer(session.lastSeen),
                    ])
                try db.execute("COMMIT")
                rows.add(1 - evicted.count, ordering: .relaxed)
                return evicted
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
        if !evicted.isEmpty {
            cache.withLock { cache in
                for id in evicted { cache[id] = nil }
            }
        }
        remember(session, storedLastSeen: session.lastSeen)
    }

    public func update(_ session: Session) throws(SessionStoreError) -> Session? {
        var stored = session
        stored.revision = session.revision + 1
        // `last_seen` (and its index page) is written only when the file's copy is stale,
        // like a read's touch: most writes then change a single row and page.
        let storedLastSeen = cache.withLock { $0[session.id]?.storedLastSeen }
        let touches = storedLastSeen.map { stored.lastSeen - $0 >= Self.touchInterval } ?? true
        let changed: Int = try write { db throws(SQLiteError) -> Int in
            if touches {
                try db.query(
                    "UPDATE sessions SET revision = ?, data = ?, last_seen = ? WHERE id = ? AND revision = ?",
                    [
                        .integer(Int64(stored.revision)), .blob(SessionCodec.encode(stored)),
                        .integer(stored.lastSeen), .blob(session.id.bytes), .integer(Int64(session.revision)),
                    ])
            } else {
                try db.query(
                    "UPDATE sessions SET revision = ?, data = ? WHERE id = ? AND revision = ?",
                    [
                        .integer(Int64(stored.revision)), .blob(SessionCodec.encode(stored)),
                        .blob(session.id.bytes), .integer(Int64(session.revision)),
                    ])
            }
            return db.changes
        }
        guard changed == 1 else {
            // Someone wrote first (or the session is gone): forget the copy, reload next time.
            _ = cache.withLock { $0.removeValue(forKey: session.id) }
            return nil
        }
        remember(stored, storedLastSeen: touches ? stored.lastSeen : storedLastSeen ?? stored.lastSeen)
        return stored
    }

    public func delete(_ id: SessionID) throws(SessionStoreError) {
        _ = cache.withLock { $0.removeValue(forKey: id) }
        try write { db throws(SQLiteError) in
            try db.query("DELETE FROM sessions WHERE id = ?", [.blob(id.bytes)])
            rows.subtract(db.changes, ordering: .relaxed)
        }
    }

    @discardableResult
    public func sweep(now: Int64) throws(SessionStoreError) -> Int {
        let removed: Int = try write { db throws(SQLiteError) -> Int in
            try db.query(
                "DELETE FROM sessions WHERE last_seen < ? OR created < ?",
                [.integer(now - lifetime.idle), .integer(now - lifetime.absolute)])
            rows.subtract(db.changes, ordering: .relaxed)
            return db.changes
        }
        cache.withLock { cache in cache = cache.filter { !lifetime.isExpired($0.value.session, now: now) } }
        return removed
    }

    /// False while writes fail (until a request's write or the background probe
    /// succeeds); otherwise whether the file answers a query.
    public func checkReady() -> Bool {
        guard health.isUp else { return false }
        return (try? run("SELECT 1")) != nil
    }

    /// The number of rows (tests and diagnostics).
    public func count() throws(SessionStoreError) -> Int {
        Int(try run("SELECT count(*) FROM sessions").first?.first?.integer ?? 0)
    }

    /// `PRAGMA integrity_check` says "ok".
    public func integrityCheck() throws(SessionStoreError) -> Bool {
        try run("PRAGMA integrity_check").first?.first == .text("ok")
    }

    private func touch(_ id: SessionID, now: Int64) throws(SessionStoreError) {
        try write { db throws(SQLiteError) in
            try db.query("UPDATE sessions SET last_seen = ? WHERE id = ?", [.integer(now), .blob(id.bytes)])
        }
        cache.withLock { cache in
            cache[id]?.storedLastSeen = now
            // The copy's own last use moves on too, so its idle expiry counts from here.
            if let lastSeen = cache[id]?.session.lastSeen, lastSeen < now { cache[id]?.session.lastSeen = now }
        }
    }

    private func remember(_ session: Session, storedLastSeen: Int64) {
        cache.withLock { cache in
            if cache[session.id] == nil {
                cache.evictLeastRecentlyUsed(toFit: cacheCapacity) { $0.session.lastSeen }
            }
            cache[session.id] = Cached(session: session, storedLastSeen: storedLastSeen)
        }
    }

    @discardableResult
    private func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SessionStoreError) -> [[SQLiteValue]] {
        let result = database.withLock { db -> Result<[[SQLiteValue]], SQLiteError> in
            do throws(SQLiteError) {
                return .success(try db.query(sql, parameters))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let rows): return rows
        case .failure(let error): throw failed(error)
        }
    }

}
