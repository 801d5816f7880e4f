// SPDX-License-Identifier: Apache-2.0
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
/// The file is bounded too: at most `maxSessions` anonymous sessions, with admission that
/// protects returning visitors (see `SessionStanding`): a session stored by one request is
/// on probation until its visitor comes back. When the file is full, a new session evicts
/// the oldest probationary sessions while a tenth of the maximum is on probation
/// (`ProbationReserve`), and the least recently seen established ones (by `last_seen`,
/// refreshed at most once a minute) only while fewer are. Where a session stands is kept
/// in its row, so a restart changes nobody's standing. Users' records are never evicted to
/// make room for anonymous sessions: they have a budget of their own (`maxSessions` records).
///
/// Failures are watched (`health`): a failed write (disk full, read-only file) or read
/// makes `checkReady` false and is logged once; a background probe writes one row of
/// its own every second until a write succeeds again, as does any request's write.
///
/// ```swift
/// let store = try SQLiteSessionStore(path: "data/sessions.sqlite")
/// ```
public final class SQLiteSessionStore: SessionStore, EngineSessionStore {
    /// The schema version this code writes; older files are migrated on open.
    public static let schemaVersion = 4

    /// A session held in memory, by reference: looking one up then costs a retain, where
    /// a struct copied the whole session out of the dictionary on every page seen before.
    /// Only ever touched under the `memory` lock.
    final class Cached {
        var session: Session
        /// `last_seen` as stored in the file (refreshed at most once a minute).
        var storedLastSeen: Int64
        /// The row's integer key: the writer finds the row by it (see `migrations`).
        var key: Int64
        /// Where it stands in the admission (kept in the row's `standing`).
        var standing: SessionStanding

        init(session: Session, storedLastSeen: Int64, key: Int64, standing: SessionStanding) {
            self.session = session
            self.storedLastSeen = storedLastSeen
            self.key = key
            self.standing = standing
        }
    }

    /// A write accepted in memory and not yet committed to the file.
    enum PendingWrite {
        case insert(Session, key: Int64, standing: SessionStanding)
        /// `expected` is the revision the file holds before it.
        case update(Session, key: Int64, expected: Int, touches: Bool)
        case touch(SessionID, key: Int64, lastSeen: Int64)
        /// A probationary session's visitor came back: established from now on.
        case promote(SessionID, key: Int64, lastSeen: Int64)
        case delete(SessionID)

        var id: SessionID {
            switch self {
            case .insert(let session, _, _), .update(let session, _, _, _): session.id
            case .touch(let id, _, _), .promote(let id, _, _), .delete(let id): id
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
        /// Sessions whose latest write is a delete not committed yet, by its group: they
        /// read as gone, though the file may still hold their rows.
        var deleting: [SessionID: CommitGroup] = [:]
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
    /// Of `rows`, those on probation and users' records (changed with `rows`).
    let probationaryRows = Atomic<Int>(0)
    let userRows = Atomic<Int>(0)
    /// What the admission did since the file was opened.
    let counters = SessionAdmissionCounters()
    let memory = Mutex(Memory())
    /// Runs the writer: one commit at a time, off the engine's threads; under steady
    /// writes it waits 100 µs before a commit so more writes share it (see `WorkerThread`).
    let writer = WorkerThread(policy: .batch, gather: .microseconds(100))
    let cacheCapacity: Int
    public let lifetime: SessionLifetime
    /// The file.
    public let path: String
    /// The most anonymous sessions kept (and, apart, the most users' records); an insert
    /// beyond it first evicts (see the type's documentation).
    public let maxSessions: Int
    /// What the admission did since the file was opened.
    public var admission: SessionAdmissionCounts { counters.snapshot }
    /// Whether writes and reads currently succeed; logs the changes.
    public let health: StoreHealth
    /// Rows whose bytes could not be decoded since start (each read as absent).
    public var undecodableSessions: Int { health.undecodable.total }
    /// The most rows kept unless told otherwise: about 1 GB on disk at roughly 330 bytes
    /// a row (a session of about 260 bytes, its key and two index entries).
    public static let defaultMaxSessions = SessionStoreConfiguration.defaultSQLiteMaxSessions
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
            let counted = try Self.countRows(db)
            rows.store(counted.rows, ordering: .relaxed)
            probationaryRows.store(counted.probationary, ordering: .relaxed)
            userRows.store(counted.users, ordering: .relaxed)
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

    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        // Only the session and whether it has expired leave the lock, not the whole entry
        // to be read again outside it.
        let cached = memory.withLock { memory -> (session: Session?, expired: Bool)? in
            guard let cached = memory.cache[id] else {
                // Deleted, but the file may still hold the row until the delete commits.
                return memory.deleting[id] != nil ? (nil, false) : nil
            }
            let expired = lifetime.isExpired(
                lastSeen: cached.session.lastSeen, created: cached.session.created, now: now)
            if !expired, cached.standing == .probationary {
                // Its visitor is back: established (queued; nobody waits for it).
                cached.standing = .established
                cached.storedLastSeen = now
                if cached.session.lastSeen < now { cached.session.lastSeen = now }
                enqueue(.promote(id, key: cached.key, lastSeen: now), in: &memory)
                counters.recordPromoted()
            } else if !expired, now - cached.storedLastSeen >= Self.touchInterval {
                // Refreshes `last_seen` in the file (queued; nobody waits for it).
                cached.storedLastSeen = now
                if cached.session.lastSeen < now { cached.session.lastSeen = now }
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
        let rows = try run("SELECT revision, data, key, standing FROM sessions WHERE id = ?", [.blob(id.bytes)])
        guard let row = rows.first, let revision = row[0].integer, let data = row[1].bytes, let key = row[2].integer,
            let standing = row[3].integer.flatMap({ SessionStanding(rawValue: UInt8(clamping: $0)) })
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
        return memory.withLock { memory -> Session? in
            // A write accepted meanwhile is newer than the file; a delete, too.
            if let newer = memory.cache[id] { return newer.session }
            if memory.deleting[id] != nil { return nil }
            if standing == .probationary {
                remember(session, storedLastSeen: now, key: key, standing: .established, in: &memory)
                enqueue(.promote(id, key: key, lastSeen: now), in: &memory)
                counters.recordPromoted()
                return session
            }
            let touches = now - storedLastSeen >= Self.touchInterval
            remember(session, storedLastSeen: touches ? now : storedLastSeen, key: key, standing: standing, in: &memory)
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
            let standing = SessionStanding.ofNew(session)
            remember(session, storedLastSeen: session.lastSeen, key: key, standing: standing, in: &memory)
            enqueue(.insert(session, key: key, standing: standing), in: &memory)
        }
        counters.recordCreated()
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
        cached.session = stored
        if touches { cached.storedLastSeen = stored.lastSeen }
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
    /// copy is expired, its `last_seen` is due to be refreshed or it is on probation:
    /// `load` does that.
    public func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        memory.withLock { memory -> HeldSession? in
            let awaits = memory.unflushed[id] != nil
            return memory.cache[id]?.heldCopy(now: now, lifetime: lifetime, awaitsCommit: awaits)
        }
    }

    /// `heldCopy`, reduced to the fields that key a page: read in place, not copied out.
    public func heldSummary(_ id: SessionID, now: Int64) -> HeldSessionSummary? {
        memory.withLock { memory -> HeldSessionSummary? in
            let awaits = memory.unflushed[id] != nil
            return memory.cache[id]?.heldSummary(now: now, lifetime: lifetime, awaitsCommit: awaits)
        }
    }

    /// Keeps `session` in memory, making room under `cacheCapacity` (never dropping a
    /// session whose writes are not committed yet: the file is behind for it).
    func remember(
        _ session: Session, storedLastSeen: Int64, key: Int64, standing: SessionStanding, in memory: inout Memory
    ) {
        if memory.cache[session.id] == nil {
            let unflushed = memory.unflushed
            memory.cache.evictLeastRecentlyUsed(
                toFit: cacheCapacity, lastUsed: { $0.session.lastSeen }, isPinned: { unflushed[$0] != nil })
        }
        memory.cache[session.id] = Cached(
            session: session, storedLastSeen: storedLastSeen, key: key, standing: standing)
    }

    @discardableResult
    func run(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SessionStoreError) -> [[SQLiteValue]] {
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
