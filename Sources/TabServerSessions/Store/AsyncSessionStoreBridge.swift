// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// An app's store that adopts only `SessionStore`, as the engine calls it: each call runs
/// the store's async call as a task and waits for it. The engine makes these calls on a
/// work lane only, never on an engine thread or in the cooperative pool, because the
/// bridge says nothing answers from memory (`readsAtOnce`, `insertsAtOnce` false,
/// `waitsForUsers` true). No fast path: every write is durable when `update` returns.
package final class AsyncSessionStoreBridge: EngineSessionStore {
    /// The app's store.
    package let store: any SessionStore

    package init(_ store: any SessionStore) {
        self.store = store
    }

    /// The engine's view of `store`: itself when it is a built-in store, else bridged.
    package static func engineView(of store: any SessionStore) -> any EngineSessionStore {
        (store as? any EngineSessionStore) ?? AsyncSessionStoreBridge(store)
    }

    /// Runs `call` as a task whose jobs this (work lane) thread runs itself until it
    /// ends: the call needs no thread of the cooperative pool, so a pool kept busy (or
    /// blocked by an app's synchronous code) cannot hold it up.
    private func wait<Value: Sendable>(
        _ call: @escaping @Sendable (any SessionStore) async throws(SessionStoreError) -> Value
    ) throws(SessionStoreError) -> Value {
        let executor = CallingThreadExecutor()
        let outcome = Mutex<Result<Value, SessionStoreError>?>(nil)
        Task(executorPreference: executor) { [store] in
            let result: Result<Value, SessionStoreError>
            do throws(SessionStoreError) {
                result = .success(try await call(store))
            } catch {
                result = .failure(error)
            }
            outcome.withLock { $0 = result }
            executor.finish()
        }
        executor.runUntilFinished()
        return try outcome.withLock { $0! }.get()
    }

    package func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? {
        try wait { store throws(SessionStoreError) in try await store.load(id, now: now) }
    }

    package func insert(_ session: Session) throws(SessionStoreError) {
        try wait { store throws(SessionStoreError) in try await store.insert(session) }
    }

    package func update(_ session: Session) throws(SessionStoreError) -> Session? {
        try wait { store throws(SessionStoreError) in try await store.update(session) }
    }

    package func delete(_ id: SessionID) throws(SessionStoreError) {
        try wait { store throws(SessionStoreError) in try await store.delete(id) }
    }

    @discardableResult
    package func sweep(now: Int64) throws(SessionStoreError) -> Int {
        try wait { store throws(SessionStoreError) in try await store.sweep(now: now) }
    }

    package func checkReady() -> Bool {
        (try? wait { store in await store.checkReady() }) ?? false
    }

    package var opened: any Sendable { store }
    package func readsAtOnce(_ id: SessionID, now: Int64) -> Bool { false }
    package func heldCopy(_ id: SessionID, now: Int64) -> HeldSession? { nil }
    package func heldSummary(_ id: SessionID, now: Int64) -> HeldSessionSummary? { nil }
    package var readsEverythingAtOnce: Bool { false }
    package var insertsAtOnce: Bool { false }
    package var waitsForUsers: Bool { true }
}
