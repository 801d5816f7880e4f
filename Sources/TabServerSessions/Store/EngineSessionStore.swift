// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerThreads

/// The engine's view of a session store: `SessionStore`'s calls made synchronously, and
/// the fast paths a request takes when the store allows them (answering from a copy in
/// memory on an engine thread, group commit's durability, pipelined writes). The built-in
/// stores adopt it; an app's store that adopts only `SessionStore` is run through
/// `AsyncSessionStoreBridge`, whose every call the engine makes on a work lane.
///
/// Calls are bounded in time. They run on an engine thread only when the store says they
/// answer from memory (`readsAtOnce`); any other runs on a work lane (docs/threads.md).
/// A store may accept writes before they are durable (group commit); `whenDurable` then
/// says when they are.
package protocol EngineSessionStore: Sendable {
    /// The session, or nil if the id is unknown or expired at `now`.
    func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session?
    /// Stores a new session.
    func insert(_ session: Session) throws(SessionStoreError)
    /// Writes `session` if the stored revision is still `session.revision`, storing it with
    /// revision + 1. Returns the stored session, or nil when someone else wrote first
    /// (the caller reloads and re-applies its change: no update is ever lost silently).
    func update(_ session: Session) throws(SessionStoreError) -> Session?
    /// Removes a session (unknown ids are ignored).
    func delete(_ id: SessionID) throws(SessionStoreError)
    /// Removes expired sessions; returns how many.
    @discardableResult
    func sweep(now: Int64) throws(SessionStoreError) -> Int
    /// Whether the store can serve requests now (`/readyz`).
    func checkReady() -> Bool
    /// Stored sessions found undecodable since start (each counted as absent; `/metrics`).
    var undecodableSessions: Int { get }
    /// Like `load`, but may answer from a copy kept in this process without asking the
    /// store whether it is still the stored revision (saving a round trip to a shared
    /// store). The caller must then either write with `update`, whose compare-and-set
    /// refuses a stale copy, or confirm the copy with `isCurrent` before answering.
    func loadOptimistically(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session?
    /// Whether `session.revision` is still the stored revision; a stale copy kept in
    /// this process is dropped, so the next load reads the store.
    func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool
    /// For stores that commit writes in groups after accepting them (SQLite): calls
    /// `done` once every write of the sessions `ids` accepted so far is durable (nil) or
    /// has failed (the error; the write is then undone). Returns false, without calling
    /// `done`, when none is waiting — always, for stores that write before returning.
    func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool
    /// Whether writes may be accepted before they are durable (then `whenDurable` says
    /// when they are); false lets callers skip asking.
    var commitsInGroups: Bool { get }
    /// `isCurrent` without waiting (a shared store asks in a pipeline): `done` hears the
    /// answer later, on another thread. Returns false, without calling `done`, when the
    /// store cannot (or need not) ask that way: the caller then calls `isCurrent`.
    func isCurrent(_ session: Session, then done: @escaping @Sendable (Result<Bool, SessionStoreError>) -> Void)
        -> Bool
    /// `update` without waiting (a shared store writes in a pipeline): `done` hears the
    /// stored session, nil for a lost compare-and-set, or the failure, later, on another
    /// thread. Returns false, without calling `done`, when the store cannot write that
    /// way now: the caller then calls `update`.
    func update(_ session: Session, then done: @escaping @Sendable (Result<Session?, SessionStoreError>) -> Void)
        -> Bool
    /// Whether `isCurrent(_:then:)` and `update(_:then:)` may answer later at all; false
    /// lets callers skip preparing for it.
    var answersLater: Bool { get }
    /// Whether a write of `id` accepted so far is not durable yet (or failed and has not
    /// been reported): `whenDurable` would wait for it. False lets callers skip preparing
    /// to wait.
    func awaitsCommit(_ id: SessionID) -> Bool
    /// Whether `loadOptimistically(id)` answers from memory, without waiting on a file or
    /// the network: an engine thread may then read the session itself; otherwise the
    /// request is run on a worker (see docs/threads.md).
    func readsAtOnce(_ id: SessionID, now: Int64) -> Bool
    /// The session as `loadOptimistically` would answer it from memory, and whether a
    /// write of it awaits its commit (`awaitsCommit`), asked together and without waiting;
    /// nil when reading it would wait (`readsAtOnce` is false) or fail, or it is unknown.
    /// One question instead of three for a request that only reads (a page seen before).
    func heldCopy(_ id: SessionID, now: Int64) -> HeldSession?
    /// `heldCopy`'s answer reduced to the fields that key a page (`HeldSessionSummary`),
    /// read in place: a page seen before is looked up with it on every request.
    func heldSummary(_ id: SessionID, now: Int64) -> HeldSessionSummary?
    /// Whether every read is from memory (`readsAtOnce` always true, `waitsForUsers`
    /// false): callers may then skip asking per request.
    var readsEverythingAtOnce: Bool { get }
    /// Whether `insert` returns without waiting on a file or the network (memory; SQLite
    /// queues it for the group commit). A request that inserts into a store that does
    /// not is run on a worker.
    var insertsAtOnce: Bool { get }
    /// Whether a signed-in user's requests wait on the store (their record is read and
    /// written synchronously): they are then run on a worker, never on an engine thread.
    var waitsForUsers: Bool { get }
    /// What the store's admission did since start: sessions created, promoted from
    /// probation, evicted by where they stood (`/metrics`; see `SessionStanding`).
    var admission: SessionAdmissionCounts { get }
    /// The store the app opened, under any wrapper of the engine's (metrics, a bridge):
    /// what `/readyz` and `/metrics` ask whether it counts its sessions or has shards.
    var opened: any Sendable { get }
}

extension EngineSessionStore {
    /// A store that decodes nothing it could find corrupt (memory) reports none.
    package var undecodableSessions: Int { 0 }

    /// A store that keeps no admission (one of an app's own) reports nothing.
    package var admission: SessionAdmissionCounts { SessionAdmissionCounts() }

    /// A store the engine calls directly is the one opened.
    package var opened: any Sendable { self }
}

extension EngineSessionStore {
    /// Stores whose loads are always current (one process owns them) just load.
    package func loadOptimistically(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        try load(id, now: now)
    }

    /// Stores whose loads are always current (one process owns them) need no check.
    package func isCurrent(_ session: Session) throws(SessionStoreError) -> Bool { true }

    /// Blocks until the writes of `ids` accepted so far are durable; throws if they
    /// failed, or are not durable within `timeout` (for callers outside a request, which
    /// have no answer to defer).
    package func waitUntilDurable(_ ids: [SessionID], timeout: Duration = .seconds(10)) throws(SessionStoreError) {
        guard commitsInGroups else { return }
        let durable = ThreadSignal()
        let outcome = Mutex<SessionStoreError?>(nil)
        let waiting = whenDurable(ids) { error in
            outcome.withLock { $0 = error }
            durable.signal()
        }
        guard waiting else { return }
        guard durable.wait(for: timeout) else {
            throw SessionStoreError("the writes were not durable within \(timeout)")
        }
        if let error = outcome.withLock({ $0 }) { throw error }
    }

    /// Stores whose copies are always current, or that only ask synchronously.
    package func isCurrent(
        _ session: Session, then done: @escaping @Sendable (Result<Bool, SessionStoreError>) -> Void
    ) -> Bool {
        false
    }

    /// Stores that only write synchronously.
    package func update(
        _ session: Session, then done: @escaping @Sendable (Result<Session?, SessionStoreError>) -> Void
    ) -> Bool {
        false
    }

    /// Stores that answer at once unless they say otherwise.
    package var answersLater: Bool { false }

    /// Stores that write before returning have nothing to wait for.
    package func awaitsCommit(_ id: SessionID) -> Bool { false }

    /// Stores in memory read everything at once.
    package func readsAtOnce(_ id: SessionID, now: Int64) -> Bool { true }

    /// The summary of `heldCopy`'s copy (stores that hold sessions in memory read it in
    /// place instead).
    package func heldSummary(_ id: SessionID, now: Int64) -> HeldSessionSummary? {
        heldCopy(id, now: now).map { HeldSessionSummary($0.session, awaitsCommit: $0.awaitsCommit) }
    }

    /// The three questions one after the other (stores that take no lock for them, or
    /// one each).
    package func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? {
        guard readsAtOnce(id, now: now), let session = try? loadOptimistically(id, now: now) else { return nil }
        return HeldSession(session: session, awaitsCommit: awaitsCommit(id))
    }

    /// Stores in memory read everything at once.
    package var readsEverythingAtOnce: Bool { true }

    /// Stores in memory, or that queue their writes, insert at once.
    package var insertsAtOnce: Bool { true }

    /// Stores in this process read users' records as they read sessions.
    package var waitsForUsers: Bool { false }

    /// Stores write before returning unless they say otherwise.
    package var commitsInGroups: Bool { false }

    /// Stores that write before returning have nothing to wait for.
    package func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool {
        false
    }
}
