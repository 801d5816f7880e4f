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
        var sessions: [SessionID: Session] = [:]
    }

    private let storage = Mutex(Storage())
    /// The most sessions kept; inserting beyond it evicts the least recently used.
    public let capacity: Int
    public let lifetime: SessionLifetime

    public init(capacity: Int = 100_000, lifetime: SessionLifetime = SessionLifetime()) {
        precondition(capacity >= 1)
        self.capacity = capacity
        self.lifetime = lifetime
    }

    /// The number of sessions held.
    public var count: Int { storage.withLock { $0.sessions.count } }

    public func load(_ id: SessionID, now: Int64) -> Session? {
        storage.withLock { storage -> Session? in
            guard var session = storage.sessions[id] else { return nil }
            if lifetime.isExpired(session, now: now) {
                storage.sessions[id] = nil
                return nil
            }
            // Touch for LRU only when a second has passed: avoids a write per request.
            if session.lastSeen != now {
                session.lastSeen = now
                storage.sessions[id] = session
            }
            return session
        }
    }

    public func insert(_ session: Session) {
        storage.withLock { storage in
            if storage.sessions.count >= capacity { Self.evict(&storage, keeping: capacity) }
            storage.sessions[session.id] = session
        }
    }

    public func update(_ session: Session) -> Session? {
        storage.withLock { storage -> Session? in
            guard let current = storage.sessions[session.id], current.revision == session.revision else { return nil }
            var stored = session
            stored.revision = current.revision + 1
            storage.sessions[session.id] = stored
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
            storage.sessions = storage.sessions.filter { !lifetime.isExpired($0.value, now: now) }
            return before - storage.sessions.count
        }
    }

    public func checkReady() -> Bool { true }

    /// Drops the least recently used 1/16 (at least one) in one pass, so a full store
    /// pays the sort once per many inserts rather than on each.
    private static func evict(_ storage: inout Storage, keeping capacity: Int) {
        let excess = storage.sessions.count - capacity + 1
        let batch = max(excess, capacity / 16, 1)
        let oldest = storage.sessions.values.map { ($0.lastSeen, $0.id) }.sorted { $0.0 < $1.0 }.prefix(batch)
        for (_, id) in oldest { storage.sessions[id] = nil }
    }
}
