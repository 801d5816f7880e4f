// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Sessions in memory: bounded in count, with idle and absolute expiry, and admission that
/// protects returning visitors (see `SessionStanding`). Lost on restart, so meant for
/// tests, benchmarks and demos.
///
/// When the store is full, a new session evicts the oldest session on probation while a
/// tenth of the store is on probation (`ProbationReserve`), and the least recently seen
/// established one only while fewer are: a flood of one-shot sessions evicts only its
/// own kind. Users' records have a budget of their own (`capacity` records).
///
/// ```swift
/// let store = MemorySessionStore(capacity: 100_000)
/// try store.insert(.new(now: now))
/// ```
public final class MemorySessionStore: SessionCounting, EngineSessionStore {
    private struct Storage {
        var sessions: [SessionID: Entry] = [:]
        /// Probationary entries in the order they were stored, oldest first, from `head`
        /// on; entries promoted or removed since stay until they are passed (checked when
        /// taken), and the list is compacted when they are most of it.
        var probation: [Entry] = []
        var head = 0
        var probationaryCount = 0
        var userCount = 0
    }

    /// A session held by reference: the dictionary's buckets stay small (a key and a
    /// pointer), which matters because it keeps up to twice as many buckets as entries.
    private final class Entry {
        var session: Session
        var standing: SessionStanding
        init(_ session: Session, standing: SessionStanding) {
            self.session = session
            self.standing = standing
        }
    }

    private let storage = Mutex(Storage())
    private let counters = SessionAdmissionCounters()
    /// The most anonymous sessions kept (users' records are counted apart, up to as many).
    public let capacity: Int
    public let lifetime: SessionLifetime

    /// A store holding at most `capacity` sessions (at least one).
    public init(capacity: Int = 100_000, lifetime: SessionLifetime = SessionLifetime()) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The number of sessions held.
    public var count: Int { storage.withLock { $0.sessions.count } }

    /// The number of sessions held (`/metrics`).
    public var sessionCount: Int { count }

    public var admission: SessionAdmissionCounts { counters.snapshot }

    /// Where the session `id` stands (nil: not held).
    public func standing(of id: SessionID) -> SessionStanding? {
        storage.withLock { $0.sessions[id]?.standing }
    }

    /// The session, or nil when unknown or expired. Asking is coming back: a session on
    /// probation is established by it.
    public func load(_ id: SessionID, now: Int64) -> Session? {
        storage.withLock { storage -> Session? in
            guard let entry = comingBack(id, now: now, in: &storage)
            else { return nil }
            return entry.session
        }
    }

    /// `load`, reduced to the fields that key a page: read in place, not copied out.
    public func heldSummary(_ id: SessionID, now: Int64) -> HeldSessionSummary? {
        storage.withLock { storage -> HeldSessionSummary? in
            guard let entry = comingBack(id, now: now, in: &storage)
            else { return nil }
            return HeldSessionSummary(
                id: entry.session.id, revision: entry.session.revision, writeToken: entry.session.writeToken,
                csrfToken: entry.session.csrfToken, language: entry.session.language, awaitsCommit: false)
        }
    }

    /// The entry of `id` as `load` finds it: nil when unknown or expired (then removed);
    /// touched when a second has passed since it was last seen, and established if it was
    /// on probation.
    private func comingBack(_ id: SessionID, now: Int64, in storage: inout Storage) -> Entry? {
        guard let entry = storage.sessions[id] else { return nil }
        if lifetime.isExpired(lastSeen: entry.session.lastSeen, created: entry.session.created, now: now) {
            remove(entry, from: &storage)
            return nil
        }
        // Touch only when a second has passed: avoids a write per request.
        if entry.session.lastSeen != now { entry.session.lastSeen = now }
        if entry.standing == .probationary {
            entry.standing = .established
            storage.probationaryCount -= 1
            counters.recordPromoted()
        }
        return entry
    }

    /// `load`, with nothing ever awaiting a commit.
    public func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        load(id, now: now).map { HeldSession(session: $0, awaitsCommit: false) }
    }

    public func insert(_ session: Session) {
        let standing = SessionStanding.ofNew(session)
        storage.withLock { storage in
            if let old = storage.sessions[session.id] { remove(old, from: &storage) }
            makeRoom(for: standing, in: &storage)
            let entry = Entry(session, standing: standing)
            storage.sessions[session.id] = entry
            switch standing {
            case .probationary:
                storage.probation.append(entry)
                storage.probationaryCount += 1
            case .user: storage.userCount += 1
            case .established: break
            }
        }
        counters.recordCreated()
    }

    public func update(_ session: Session) -> Session? {
        storage.withLock { storage -> Session? in
            guard let entry = storage.sessions[session.id], entry.session.revision == session.revision else {
                return nil
            }
            var stored = session
            stored.revision = entry.session.revision + 1
            entry.session = stored
            return stored
        }
    }

    public func delete(_ id: SessionID) {
        storage.withLock { storage in
            if let entry = storage.sessions[id] { remove(entry, from: &storage) }
        }
    }

    @discardableResult
    public func sweep(now: Int64) -> Int {
        storage.withLock { storage in
            let expired = storage.sessions.values.filter { lifetime.isExpired($0.session, now: now) }
            for entry in expired { remove(entry, from: &storage) }
            compactProbation(&storage)
            return expired.count
        }
    }

    public func checkReady() -> Bool { true }

    // MARK: Admission

    /// Makes room for one more session standing as `standing`.
    private func makeRoom(for standing: SessionStanding, in storage: inout Storage) {
        if standing == .user {
            guard storage.userCount >= capacity else { return }
            evictLeastRecentlySeen(.user, in: &storage)
            return
        }
        guard storage.sessions.count - storage.userCount >= capacity else { return }
        let established = storage.sessions.count - storage.userCount - storage.probationaryCount
        if storage.probationaryCount >= ProbationReserve.size(forCapacity: capacity) || established == 0 {
            evictOldestProbationary(in: &storage)
        } else {
            evictLeastRecentlySeen(.established, in: &storage)
        }
    }

    /// Evicts the session that has been on probation longest.
    private func evictOldestProbationary(in storage: inout Storage) {
        while storage.head < storage.probation.count {
            let entry = storage.probation[storage.head]
            storage.head += 1
            guard entry.standing == .probationary, storage.sessions[entry.session.id] === entry else { continue }
            remove(entry, from: &storage)
            counters.recordEvicted(.probationary)
            break
        }
        compactProbation(&storage)
    }

    /// Evicts the least recently seen sessions standing as `standing`: a sixty-fourth of
    /// the capacity at once (at least one), so a full store sorts once per many inserts.
    private func evictLeastRecentlySeen(_ standing: SessionStanding, in storage: inout Storage) {
        let batch = max(1, capacity / 64)
        let oldest = storage.sessions.values.filter { $0.standing == standing }
            .sorted { $0.session.lastSeen < $1.session.lastSeen }.prefix(batch)
        for entry in oldest { remove(entry, from: &storage) }
        counters.recordEvicted(standing, count: oldest.count)
    }

    private func remove(_ entry: Entry, from storage: inout Storage) {
        guard storage.sessions[entry.session.id] === entry else { return }
        storage.sessions[entry.session.id] = nil
        switch entry.standing {
        case .probationary: storage.probationaryCount -= 1
        case .user: storage.userCount -= 1
        case .established: break
        }
    }

    /// Drops the passed and stale part of the probation list once it is most of it.
    private func compactProbation(_ storage: inout Storage) {
        let listed = storage.probation.count - storage.head
        guard listed > 64, listed > 2 * storage.probationaryCount else { return }
        let sessions = storage.sessions
        storage.probation = storage.probation[storage.head...].filter {
            $0.standing == .probationary && sessions[$0.session.id] === $0
        }
        storage.head = 0
    }
}
