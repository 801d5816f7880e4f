// SPDX-License-Identifier: Apache-2.0

/// Where sessions live, for whoever writes a store: six async calls, each with a typed
/// error. The library makes every call off the engine's threads, so a store may wait on
/// a file, a database or the network as long as its calls are bounded in time.
///
/// The one rule that keeps visitors' choices safe is `update`'s compare-and-set: write only
/// when the stored revision is still the one the caller read, and store it one higher.
/// A request that loses the race reads again and applies its change again, so no write
/// is ever lost silently.
///
/// Register an opener for the store's URL scheme, and `--sessions` names it:
///
/// ```swift
/// struct FolderStore: SessionStore {
///     let folder: String
///     func load(_ id: SessionID, now: Int64) async throws(SessionStoreError) -> Session? { … }
///     func insert(_ session: Session) async throws(SessionStoreError) { … }
///     func update(_ session: Session) async throws(SessionStoreError) -> Session? { … }
///     func delete(_ id: SessionID) async throws(SessionStoreError) { … }
///     func sweep(now: Int64) async throws(SessionStoreError) -> Int { … }
///     func checkReady() async -> Bool { … }
/// }
///
/// app.sessionStores(scheme: "folder") { configuration, _ throws(SessionStoreError) in
///     (FolderStore(folder: configuration.location), nil)
/// }
/// // tabserver --sessions folder:/var/lib/shop/sessions
/// ```
///
/// Sessions are stored as `SessionCodec` bytes; `lifetime.isExpired` says which have
/// expired. The built-in stores (memory, SQLite, Redis) adopt this protocol too.
public protocol SessionStore: Sendable {
    /// The session, or nil if the id is unknown or expired at `now` (seconds since 1970).
    func load(_ id: SessionID, now: Int64) async throws(SessionStoreError) -> Session?
    /// Stores a new session. A store that instances share refuses an id already stored
    /// (throws): two browsers of one signed-in user may create the user's record
    /// (`SessionID.user`) at once, and the one refused runs again on the record the other
    /// stored. A store of one process may replace it, as the memory store does.
    func insert(_ session: Session) async throws(SessionStoreError)
    /// Writes `session` if the stored revision is still `session.revision`, storing it
    /// with revision + 1. Returns the stored session, or nil when someone else wrote first
    /// or the session is gone.
    func update(_ session: Session) async throws(SessionStoreError) -> Session?
    /// Removes a session (an unknown id is no error).
    func delete(_ id: SessionID) async throws(SessionStoreError)
    /// Removes the sessions expired at `now`; returns how many.
    @discardableResult
    func sweep(now: Int64) async throws(SessionStoreError) -> Int
    /// Whether the store can take a write now (`/readyz`).
    func checkReady() async -> Bool
}
