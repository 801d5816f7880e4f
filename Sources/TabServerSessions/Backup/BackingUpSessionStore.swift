// SPDX-License-Identifier: Apache-2.0

/// A session store that writes a consistent copy of itself while it keeps serving: the
/// server then answers `POST /admin/backup` for it (`tabserver backup DEST` asks that of
/// a SQLite store). The SQLite store adopts it; a store whose data lives elsewhere
/// (Redis) has its own backups and does not.
public protocol BackingUpSessionStore: SessionStore {
    /// The store's file; the operator's token is written beside it (`<path>.admin-token`).
    var path: String { get }

    /// Writes a consistent copy to `destination` (an absolute path), blocking the calling
    /// thread until it is complete: every write acknowledged before the call is in it.
    /// Called on a thread of its own, never an engine loop. Returns the pages copied.
    func writeBackup(to destination: String) throws(SessionStoreError) -> Int
}
