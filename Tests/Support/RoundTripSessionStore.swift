// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions

/// A memory store that says what a store with a round trip says (Redis): no read is at
/// once, so the app must fetch a visitor's session off the engine loop. Each `load`
/// records whether it ran on a request's task (on the loop) or outside one (on the
/// blocking pool).
public final class RoundTripSessionStore: SessionStore {
    private let base = MemorySessionStore(capacity: 100, lifetime: SessionLifetime())
    private let loads = Mutex<[Bool]>([])

    public init() {}

    /// For each `load` so far, in order: whether it ran on a task.
    public var loadsOnATask: [Bool] { loads.withLock { $0 } }

    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        let onTask = withUnsafeCurrentTask { $0 != nil }
        loads.withLock { $0.append(onTask) }
        return try base.load(id, now: now)
    }
    public func insert(_ session: Session) throws(SessionStoreError) { try base.insert(session) }
    public func update(_ session: Session) throws(SessionStoreError) -> Session? { try base.update(session) }
    public func delete(_ id: SessionID) throws(SessionStoreError) { try base.delete(id) }
    public func sweep(now: Int64) throws(SessionStoreError) -> Int { try base.sweep(now: now) }
    public func checkReady() -> Bool { base.checkReady() }
    public func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool { try base.isCurrent(session) }
    public func readsAtOnce(_ id: SessionID, now: Int64) -> Bool { false }
    public var readsEverythingAtOnce: Bool { false }
}
