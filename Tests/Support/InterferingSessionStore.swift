// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerSessions

/// A real store that loses compare-and-set races on purpose: before each of the first
/// `interferences` updates it writes the same session itself (as another instance would),
/// so the update that follows finds a newer revision and fails, and the app must re-run
/// the request. Counts the updates that failed that way.
public final class InterferingSessionStore: SessionStore, EngineSessionStore {
    private let base: any EngineSessionStore
    private let remaining: Atomic<Int>
    /// Updates that lost to an interfering write.
    public let conflicts = Atomic<Int>(0)

    package init(_ base: any EngineSessionStore, interferences: Int) {
        self.base = base
        remaining = Atomic(interferences)
    }

    /// The next `count` updates each lose to an interfering write.
    public func arm(_ count: Int) { remaining.store(count, ordering: .relaxed) }

    public func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? { try base.load(id, now: now) }
    public func insert(_ session: Session) throws(SessionStoreError) { try base.insert(session) }

    public func update(_ session: Session) throws(SessionStoreError) -> Session? {
        if remaining.subtract(1, ordering: .relaxed).oldValue > 0,
            var other = try base.load(session.id, now: session.lastSeen)
        {
            other.lastSeen += 1
            _ = try base.update(other)
        }
        let stored = try base.update(session)
        if stored == nil { conflicts.add(1, ordering: .relaxed) }
        return stored
    }

    public func delete(_ id: SessionID) throws(SessionStoreError) { try base.delete(id) }
    public func sweep(now: Int64) throws(SessionStoreError) -> Int { try base.sweep(now: now) }
    public func checkReady() -> Bool { base.checkReady() }
    public func loadOptimistically(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        try base.loadOptimistically(id, now: now)
    }
    public func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool { try base.isCurrent(session) }
    public var answersLater: Bool { base.answersLater }
    public func awaitsCommit(_ id: SessionID) -> Bool { base.awaitsCommit(id) }
    public func readsAtOnce(_ id: SessionID, now: Int64) -> Bool { base.readsAtOnce(id, now: now) }
    public func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        base.heldCopy(id, now: now)
    }
    public var waitsForUsers: Bool { base.waitsForUsers }
    public var readsEverythingAtOnce: Bool { base.readsEverythingAtOnce }
    public var insertsAtOnce: Bool { base.insertsAtOnce }
    public var commitsInGroups: Bool { base.commitsInGroups }
    public func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool {
        base.whenDurable(ids, done)
    }
    public func isCurrent(
        _ session: Session, then done: @escaping @Sendable (Result<Bool, SessionStoreError>) -> Void
    ) -> Bool {
        base.isCurrent(session, then: done)
    }
    public func update(
        _ session: Session, then done: @escaping @Sendable (Result<Session?, SessionStoreError>) -> Void
    ) -> Bool {
        false  // every write goes through `update`, where the interference happens
    }
}
