// SPDX-License-Identifier: Apache-2.0
import Dispatch
import FoundationEssentials
import Synchronization
import TabServerSQLite
import TabServerSessions
import TabServerThreads

/// Sessions in an SQLite file: survive restarts and crashes, for one server instance
/// (several instances share sessions through Redis instead).
///
/// Durability: WAL with `synchronous = NORMAL`, so a committed transaction survives the
/// process being killed at any moment; only a power loss or kernel crash may lose the
/// last commits — acceptable for preference-only state, and several times faster than
/// `FULL`.
///
/// Group commit: `insert`, `update` and `delete` take effect in this process at once
/// (later loads see them) and are queued; one writer commits everything queued in one
/// transaction, so writes that arrive together cost one commit. `whenDurable` tells
/// when a session's writes are committed: the app sends its answer (the 303 of a tab
/// selection) only then, so an acknowledged write is never lost to a crash. If a
/// commit fails, every write waiting for it fails too and is forgotten here as well.
/// `flush()` waits for everything queued.
///
/// Reads are served from a bounded in-memory copy of recently used sessions, kept
/// coherent because this process is the only writer (`locking_mode = EXCLUSIVE` makes
/// the file refuse a second one).
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
    public static let schemaVersion = 3

    struct Cached {
        var session: Session
        /// `last_seen` as stored in the file (refreshed at most once a minute).
        var storedLastSeen: Int64
        /// The row's integer key: the writer finds the row by it (see `migrations`).
        var key: Int64
    }

    /// A write accepted in memory and not yet committed to the file.
    enum PendingWrite {
        case insert(Session, key: Int64)
        /// `expected` is the revision the file holds before it.
        case update(Session, key: Int64, expected: Int, touches: Bool)
        case touch(SessionID, key: Int64, lastSeen: Int64)
        case delete(SessionID)

        var id: SessionID {
            switch self {
            case .insert(let session, _), .update(let session, _, _, _): session.id
            case .touch(let id, _, _), .delete(let id): id
            }
        }
    }

    /// What this process knows ahead of the file, under one lock: the cache and the
    /// queue of writes, so a write's check, its effect here and its place in the queue
    /// are one step.
    struct Memory {
        var cache: [SessionID: Cached] = [:]
        /// Accepted writes, in order, waiting for the writer.
        var pending: [PendingWrite] = []
        /// Where in `pending` the update of a session sits while nothing else of that
        /// session follows it: a newer update replaces it (one row write per commit).
        var pendingUpdate: [SessionID: Int] = [:]
        /// The group the pending writes will be committed in.
        var group = CommitGroup()
        /// The latest group holding a write of each session, until it is committed.
        var unflushed: [SessionID: CommitGroup] = [:]
        /// Whether the writer is scheduled or running.
        var writing = false
        /// The group the writer is committing now.
        var committing: CommitGroup?
        /// The group someone waits for (`whenDurable`) for each session: if it fails, that
        /// waiter is told, so nothing more needs noting.
        var awaited: [SessionID: CommitGroup] = [:]
        /// The key the next inserted row gets (keys are never reused while the file is open).
        var nextKey: Int64 = 1
    }

    let database: Mutex<SQLiteDatabase>
    /// The writer's statements on `database`.
    let writerStatements: WriterStatements
    /// Rows in `sessions`, changed only while `database` is locked.
    let rows = Atomic<Int>(0)
    let memory = Mutex(Memory())
    /// Runs the writer: one commit at a time, off the engine's threads; under steady
    /// writes it waits 100 µs before a commit so more writes share it (see `WorkerThread`).
    let writer = WorkerThread(policy: .batch, gather: .microseconds(100))
    let cacheCapacity: Int
    public let lifetime: SessionLifetime
    /// The file.
    public let path: String
    /// The most rows kept; an insert beyond it first removes the least recently used.
    public let maxSessions: Int
    /// Whether writes and reads currently succeed; logs the changes.
    public let health: StoreHealth
    /// Rows whose bytes could not be decoded since start (each read as absent).
    public var undecodableSessions: Int { health.undecodable.total }
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
            let db = try SQLiteDatabase(path: path, coalescingWrites: true)
            // One process owns the file (the cache relies on it): no other may write it,
            // and without shared-memory locking each transaction saves its lock calls.
            try db.execute("PRAGMA locking_mode = EXCLUSIVE")
            // A new file gets 1 KiB pages: a session row is ~300 bytes, and each commit
            // appends every page it changed to the WAL, so small pages write less.
            if try db.userVersion == 0 { try db.execute("PRAGMA page_size = 1024") }
            try db.execute("PRAGMA journal_mode = WAL")
            try db.execute("PRAGMA synchronous = NORMAL")
            // Checkpoint every 8 MiB of WAL rather than every 1 MiB: a large file's visitors'
            // rows lie on pages far apart, and a checkpoint writes each changed page back
            // once however often the WAL holds it, so fewer checkpoints write fewer pages.
            try db.execute("PRAGMA wal_autocheckpoint = 8192")
            try Self.migrate(db)
            writerStatements = try WriterStatements(db)
            let count = try db.query("SELECT count(*) FROM sessions").first?.first?.integer ?? 0
            rows.store(Int(count), ordering: .relaxed)
            let lastKey = try db.query("SELECT max(key) FROM sessions").first?.first?.integer ?? 0
            memory.withLock { $0.nextKey = lastKey + 1 }
            database = Mutex(db)
        } catch {
            throw SessionStoreError(error.description)
        }
        writer.start { [weak self] in self?.commitQueued() }
    }

    /// Commits what is still queued (the writer thread holds no reference to the store, so
    /// nothing else would), then ends the writer thread.
    deinit {
        commitQueued()
        writer.stop()
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
        // An integer key (the rowid) beside the id: the writer's UPDATE finds its row by an
        // integer seek instead of comparing 16-byte blob keys at each level (the seek was
        // 12 % of the writer's time); the id stays unique, for loads, through its index.
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
        // Only the session and whether it has expired leave the lock, not the whole entry
        // to be read again outside it.
        let cached = memory.withLock { memory -> (session: Session, expired: Bool)? in
            guard var cached = memory.cache[id] else { return nil }
            let expired = lifetime.isExpired(cached.session, now: now)
            if !expired, now - cached.storedLastSeen >= Self.touchInterval {
                // Refreshes `last_seen` in the file (queued; nobody waits for it).
                cached.storedLastSeen = now
                if cached.session.lastSeen < now { cached.session.lastSeen = now }
                memory.cache[id] = cached
                enqueue(.touch(id, key: cached.key, lastSeen: now), in: &memory)
            }
            return (cached.session, expired)
        }
        if let cached {
            if cached.expired {
                try delete(id)
                return nil
            }
            return cached.session
        }
        let rows = try run("SELECT revision, data, key FROM sessions WHERE id = ?", [.blob(id.bytes)])
        guard let row = rows.first, let revision = row[0].integer, let data = row[1].bytes, let key = row[2].integer
        else { return nil }
        var session: Session
        do {
            session = try SessionCodec.decode(data, id: id, revision: Int(revision))
        } catch {
            health.recordUndecodable(error)
            return nil
        }
        if lifetime.isExpired(session, now: now) {
            try delete(id)
            return nil
        }
        let storedLastSeen = session.lastSeen
        session.lastSeen = now
        return memory.withLock { memory -> Session in
            // A write accepted meanwhile is newer than the file.
            if let newer = memory.cache[id] { return newer.session }
            let touches = now - storedLastSeen >= Self.touchInterval
            remember(session, storedLastSeen: touches ? now : storedLastSeen, key: key, in: &memory)
            if touches { enqueue(.touch(id, key: key, lastSeen: now), in: &memory) }
            return session
        }
    }

    /// Stores a new session (committed with the next group; see `whenDurable`); when the
    /// file holds `maxSessions` rows, the least recently used go first, in the same
    /// transaction. Throws when the id is already taken.
    public func insert(_ session: Session) throws(SessionStoreError) {
        let known = memory.withLock { $0.cache[session.id] != nil }
        if known {
            throw SessionStoreError("sqlite \(path): session \(session.id) exists already")
        }
        let found = try run("SELECT 1 FROM sessions WHERE id = ?", [.blob(session.id.bytes)])
        if !found.isEmpty {
            throw SessionStoreError("sqlite \(path): session \(session.id) exists already")
        }
        try memory.withLock { memory throws(SessionStoreError) in
            guard memory.cache[session.id] == nil else {
                throw SessionStoreError("sqlite \(path): session \(session.id) exists already")
            }
            let key = memory.nextKey
            memory.nextKey += 1
            remember(session, storedLastSeen: session.lastSeen, key: key, in: &memory)
            enqueue(.insert(session, key: key), in: &memory)
        }
    }

    /// Compare-and-set against this process's copy, which is always current (this process
    /// is the only writer); the row is written with the next group (see `whenDurable`).
    public func update(_ session: Session) throws(SessionStoreError) -> Session? {
        let stored = session.withRevision(session.revision + 1)
        if let outcome = memory.withLock({ accept(session, as: stored, in: &$0) }) { return outcome }
        // Not in memory (evicted, or never read here): the file is current for it.
        guard try load(session.id, now: session.lastSeen) != nil else { return nil }
        return memory.withLock { accept(session, as: stored, in: &$0) } ?? nil
    }

    /// The compare-and-set against the copy in memory: nil when there is no copy, `.some(nil)`
    /// when it has moved on, else the stored session (queued).
    private func accept(_ session: Session, as stored: Session, in memory: inout Memory) -> Session?? {
        guard let cached = memory.cache[session.id] else { return .none }
        guard cached.session.revision == session.revision else { return .some(nil) }
        // `last_seen` (and its index page) is written only when the file's copy is
        // stale, like a read's touch: most writes then change a single row and page.
        let touches = stored.lastSeen - cached.storedLastSeen >= Self.touchInterval
        memory.cache[session.id] = Cached(
            session: stored, storedLastSeen: touches ? stored.lastSeen : cached.storedLastSeen, key: cached.key)
        enqueue(.update(stored, key: cached.key, expected: session.revision, touches: touches), in: &memory)
        return .some(stored)
    }

    public func delete(_ id: SessionID) throws(SessionStoreError) {
        memory.withLock { memory in
            memory.cache[id] = nil
            enqueue(.delete(id), in: &memory)
        }
    }

    /// Writes are committed in groups (see `whenDurable`).
    public var commitsInGroups: Bool { true }

    /// A session in the memory cache is read without the file; any other is a read of it.
    public func readsAtOnce(_ id: SessionID, now: Int64) -> Bool {
        memory.withLock { $0.cache[id] != nil }
    }

    /// A user's record is a session like any other (`readsAtOnce` says whether it waits).
    public var waitsForUsers: Bool { false }

    /// Sessions not in the memory cache are read from the file.
    public var readsEverythingAtOnce: Bool { false }

    public func awaitsCommit(_ id: SessionID) -> Bool {
        memory.withLock { $0.unflushed[id] != nil }
    }

    /// Under the lock once (both engine threads and the writer take it). Nil too when the
    /// copy is expired or its `last_seen` is due to be refreshed: `load` does that.
    public func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        memory.withLock { memory in
            guard let cached = memory.cache[id] else { return nil }
            guard now - cached.storedLastSeen < Self.touchInterval, !lifetime.isExpired(cached.session, now: now)
            else { return nil }
            return HeldSession(session: cached.session, awaitsCommit: memory.unflushed[id] != nil)
        }
    }

    /// Calls `done` once the writes of `ids` accepted so far are committed (nil) or
    /// failed; false, without calling it, when none is waiting.
    public func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool {
        // Groups commit in order: the latest one suffices, unless one of them has failed
        // already (then it is reported, once: the request that wrote asks first).
        let group = memory.withLock { memory -> CommitGroup? in
            var latest: CommitGroup?
            for id in ids {
                guard let group = memory.unflushed[id] else { continue }
                if group.hasFailed {
                    memory.unflushed[id] = nil
                    return group
                }
                memory.awaited[id] = group
                if latest !== memory.group { latest = group }
            }
            return latest
        }
        guard let group else { return false }
        group.whenDone(done)
        return true
    }

    /// Waits until every write accepted so far is committed; throws if one failed (or the
    /// store is down since the last failed write).
    public func flush() throws(SessionStoreError) {
        let group = memory.withLock { memory -> CommitGroup? in
            memory.pending.isEmpty ? memory.committing : memory.group
        }
        if let error = group?.wait() { throw error }
        // Committed before this call, and failed: the store is down until a write succeeds.
        if let failure = health.lastFailure { throw failure }
    }

    @discardableResult
    public func sweep(now: Int64) throws(SessionStoreError) -> Int {
        try flush()
        let removed: Int = try write { db throws(SQLiteError) -> Int in
            try db.query(
                "DELETE FROM sessions WHERE last_seen < ? OR created < ?",
                [.integer(now - lifetime.idle), .integer(now - lifetime.absolute)])
            rows.subtract(db.changes, ordering: .relaxed)
            return db.changes
        }
        memory.withLock { memory in
            memory.cache = memory.cache.filter {
                memory.unflushed[$0.key] != nil || !lifetime.isExpired($0.value.session, now: now)
            }
        }
        return removed
    }

    /// False while writes fail (until a request's write or the background probe
    /// succeeds); otherwise whether the file answers a query.
    public func checkReady() -> Bool {
        // What is queued settles first: its commit may end (or start) an outage.
        _ = try? flush()
        guard health.isUp else { return false }
        return (try? run("SELECT 1")) != nil
    }

    /// The rows in the file, counted as they are committed (no query; `/metrics`).
    public var rowCount: Int { rows.load(ordering: .relaxed) }

    /// The number of rows, counted by the file after a flush (tests and diagnostics).
    public func count() throws(SessionStoreError) -> Int {
        try flush()
        return Int(try run("SELECT count(*) FROM sessions").first?.first?.integer ?? 0)
    }

    /// The session as the file holds it, whatever this process has accepted since: what
    /// a restart would load (tests and diagnostics; `flush()` first to include everything).
    public func fileRow(_ id: SessionID) throws(SessionStoreError) -> Session? {
        let rows = try run("SELECT revision, data FROM sessions WHERE id = ?", [.blob(id.bytes)])
        guard let row = rows.first, let revision = row[0].integer, let data = row[1].bytes else { return nil }
        return try? SessionCodec.decode(data, id: id, revision: Int(revision))
    }

    /// `PRAGMA integrity_check` says "ok".
    public func integrityCheck() throws(SessionStoreError) -> Bool {
        try flush()
        return try run("PRAGMA integrity_check").first?.first == .text("ok")
    }

    /// Keeps `session` in memory, making room under `cacheCapacity` (never dropping a
    /// session whose writes are not committed yet: the file is behind for it).
    func remember(_ session: Session, storedLastSeen: Int64, key: Int64, in memory: inout Memory) {
        if memory.cache[session.id] == nil {
            let unflushed = memory.unflushed
            memory.cache.evictLeastRecentlyUsed(
                toFit: cacheCapacity, lastUsed: { $0.session.lastSeen }, isPinned: { unflushed[$0] != nil })
        }
        memory.cache[session.id] = Cached(session: session, storedLastSeen: storedLastSeen, key: key)
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
