// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// Sessions in memory: bounded in count with least-recently-used eviction, and idle
/// and absolute expiry. Lost on restart, so meant for tests, benchmarks and demos.
///
/// ```swift
/// let store = MemorySessionStore(capacity: 100_000)
/// try store.insert(.new(now: now))
/// ```
public final class MemorySessionStore: SessionStore {
    private struct Storage {
        var sessions: [SessionID: Entry] = [:]
    }

    /// A session held by reference: the dictionary's buckets stay small (a key and a
    /// pointer), which matters because it keeps up to twice as many buckets as entries.
    private final class Entry {
        var session: Session
        init(_ session: Session) { self.session = session }
    }

    private let storage = Mutex(Storage())
    /// The most sessions kept; inserting beyond it evicts the least recently used.
    public let capacity: Int
    public let lifetime: SessionLifetime

    /// A store holding at most `capacity` sessions (at least one).
    public init(capacity: Int = 100_000, lifetime: SessionLifetime = SessionLifetime()) {
        self.capacity = max(1, capacity)
        self.lifetime = lifetime
    }

    /// The number of sessions held.
    public var count: Int { storage.withLock { $0.sessions.count } }

    public func load(_ id: SessionID, now: Int64) -> Session? {
        storage.withLock { storage -> Session? in
            guard let entry = storage.sessions[id] else { return nil }
            if lifetime.isExpired(entry.session, now: now) {
                storage.sessions[id] = nil
                return nil
            }
            // Touch for LRU only when a second has passed: avoids a write per request.
            if entry.session.lastSeen != now { entry.session.lastSeen = now }
            return entry.session
        }
    }

    /// `load`, with nothing ever awaiting a commit.
    public func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        load(id, now: now).map { HeldSession(session: $0, awaitsCommit: false) }
    }

    public func insert(_ session: Session) {
        storage.withLock { storage in
            storage.sessions.evictLeastRecentlyUsed(toFit: capacity) { $0.session.lastSeen }
            storage.sessions[session.id] = Entry(session)
        }
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
        storage.withLock { _ = $0.sessions.removeValue(forKey: id) }
    }

    @discardableResult
    public func sweep(now: Int64) -> Int {
        storage.withLock { storage in
            let before = storage.sessions.count
            storage.sessions = storage.sessions.filter { !lifetime.isExpired($0.value.session, now: now) }
            return before - storage.sessions.count
        }
    }

    public func checkReady() -> Bool { true }
}
