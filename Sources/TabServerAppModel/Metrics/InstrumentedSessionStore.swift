// SPDX-License-Identifier: Apache-2.0
import TabServerSessions

/// A session store that times each call and counts failures into `AppMetrics`, then
/// passes it on unchanged. Used only when metrics are on.
package final class InstrumentedSessionStore: EngineSessionStore {
    package let base: any EngineSessionStore
    private let metrics: AppMetrics

    package init(_ base: any EngineSessionStore, metrics: AppMetrics) {
        self.base = base
        self.metrics = metrics
    }

    @inline(__always)
    private func measure<T>(_ operation: AppMetrics.StoreOperation, _ body: () throws(SessionStoreError) -> T)
        throws(SessionStoreError) -> T
    {
        let started = AppMetrics.monotonicNanos()
        defer { metrics.storeLatency.record(operation.rawValue, nanos: AppMetrics.monotonicNanos() &- started) }
        do {
            return try body()
        } catch {
            metrics.storeErrors.increment(operation.rawValue)
            throw error
        }
    }

    package func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        try measure(.load) { () throws(SessionStoreError) in try base.load(id, now: now) }
    }

    package func insert(_ session: Session) throws(SessionStoreError) {
        try measure(.insert) { () throws(SessionStoreError) in try base.insert(session) }
    }

    package func update(_ session: Session) throws(SessionStoreError) -> Session? {
        try measure(.update) { () throws(SessionStoreError) in try base.update(session) }
    }

    package func delete(_ id: SessionID) throws(SessionStoreError) {
        try measure(.delete) { () throws(SessionStoreError) in try base.delete(id) }
    }

    @discardableResult
    package func sweep(now: Int64) throws(SessionStoreError) -> Int {
        try measure(.sweep) { () throws(SessionStoreError) in try base.sweep(now: now) }
    }

    package func checkReady() -> Bool { base.checkReady() }
    package var undecodableSessions: Int { base.undecodableSessions }
    package var admission: SessionAdmissionCounts { base.admission }
    package var opened: any Sendable { base.opened }

    package func loadOptimistically(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        try measure(.load) { () throws(SessionStoreError) in try base.loadOptimistically(id, now: now) }
    }

    package func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool {
        try measure(.load) { () throws(SessionStoreError) in try base.isCurrent(session) }
    }

    package var answersLater: Bool { base.answersLater }
    package func awaitsCommit(_ id: SessionID) -> Bool { base.awaitsCommit(id) }
    package func readsAtOnce(_ id: SessionID, now: Int64) -> Bool { base.readsAtOnce(id, now: now) }
    /// Timed as a load (it is one, from memory).
    package func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        timedAsLoad { base.heldCopy(id, now: now) }
    }
    /// Timed as a load, like `heldCopy`.
    package func heldSummary(_ id: SessionID, now: Int64) -> HeldSessionSummary? {
        timedAsLoad { base.heldSummary(id, now: now) }
    }
    /// `body`'s time recorded as a load's (a read from memory that cannot fail).
    @inline(__always)
    private func timedAsLoad<T>(_ body: () -> T) -> T {
        let started = AppMetrics.monotonicNanos()
        defer {
            metrics.storeLatency.record(
                AppMetrics.StoreOperation.load.rawValue, nanos: AppMetrics.monotonicNanos() &- started)
        }
        return body()
    }
    package var waitsForUsers: Bool { base.waitsForUsers }
    package var readsEverythingAtOnce: Bool { base.readsEverythingAtOnce }
    package var insertsAtOnce: Bool { base.insertsAtOnce }
    package var commitsInGroups: Bool { base.commitsInGroups }
    package func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool {
        base.whenDurable(ids, done)
    }

    package func isCurrent(_ session: Session, then done: @escaping @Sendable (Result<Bool, SessionStoreError>) -> Void)
        -> Bool
    {
        let started = AppMetrics.monotonicNanos()
        return base.isCurrent(session) { [metrics] result in
            metrics.storeLatency.record(
                AppMetrics.StoreOperation.load.rawValue, nanos: AppMetrics.monotonicNanos() &- started)
            if case .failure = result { metrics.storeErrors.increment(AppMetrics.StoreOperation.load.rawValue) }
            done(result)
        }
    }

    package func update(
        _ session: Session, then done: @escaping @Sendable (Result<Session?, SessionStoreError>) -> Void
    )
        -> Bool
    {
        let started = AppMetrics.monotonicNanos()
        return base.update(session) { [metrics] result in
            let operation = AppMetrics.StoreOperation.update.rawValue
            metrics.storeLatency.record(operation, nanos: AppMetrics.monotonicNanos() &- started)
            if case .failure = result { metrics.storeErrors.increment(operation) }
            done(result)
        }
    }
}
