// SPDX-License-Identifier: Apache-2.0
import CSQLite

#if canImport(Glibc)
    import Glibc
#endif

/// An online copy of a database into a new file, with SQLite's backup API: a few pages
/// per `step`, so the source connection can go on writing between steps (a change it
/// makes is carried into the copy). The copy is written beside the destination and
/// renamed into place when complete, so the destination path never holds half a copy.
///
/// Like the source connection, not thread-safe: call it where the source's owner
/// serializes its use (the session store, under its lock).
///
/// ```swift
/// let backup = try SQLiteBackup(from: db, to: "/backups/sessions.sqlite")
/// while try !backup.step(pages: 256) {}   // release the source's lock between steps
/// try backup.finish()
/// ```
public final class SQLiteBackup {
    private let destination: OpaquePointer
    private var handle: OpaquePointer?
    private let partialPath: String
    /// The file the copy ends up in.
    public let path: String
    /// Pages copied so far.
    public private(set) var pagesCopied: Int32 = 0

    /// Starts a copy of `source`'s main database into `path` (replaced if it exists).
    public init(from source: SQLiteDatabase, to path: String) throws(SQLiteError) {
        self.path = path
        partialPath = path + ".partial"
        unlink(partialPath)
        var pointer: OpaquePointer?
        let status = sqlite3_open_v2(partialPath, &pointer, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nil)
        guard status == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close_v2(pointer) }
            throw SQLiteError(code: status, message: message, operation: "open \(partialPath)")
        }
        destination = pointer
        guard let backup = sqlite3_backup_init(destination, "main", source.handle, "main") else {
            let error = SQLiteError(
                code: sqlite3_errcode(destination), message: String(cString: sqlite3_errmsg(destination)),
                operation: "back up to \(path)")
            sqlite3_close_v2(destination)
            unlink(partialPath)
            throw error
        }
        handle = backup
    }

    deinit {
        if let handle { sqlite3_backup_finish(handle) }
        sqlite3_close_v2(destination)
        if handle != nil { unlink(partialPath) }
    }

    /// Copies up to `pages` more pages; true once the whole database is in the copy.
    /// A busy or locked source is not an error: the next step tries again.
    public func step(pages: Int32) throws(SQLiteError) -> Bool {
        guard let handle else { return true }
        let status = sqlite3_backup_step(handle, pages)
        let total = sqlite3_backup_pagecount(handle)
        pagesCopied = total - sqlite3_backup_remaining(handle)
        switch status {
        case SQLITE_DONE: return true
        case SQLITE_OK, SQLITE_BUSY, SQLITE_LOCKED: return false
        default:
            throw SQLiteError(
                code: status, message: String(cString: sqlite3_errstr(status)), operation: "back up to \(path)")
        }
    }

    /// Ends the copy and moves it to `path`; throws when the copy failed.
    public func finish() throws(SQLiteError) {
        guard let handle else { return }
        self.handle = nil
        let status = sqlite3_backup_finish(handle)
        guard status == SQLITE_OK else {
            unlink(partialPath)
            throw SQLiteError(
                code: status, message: String(cString: sqlite3_errmsg(destination)), operation: "back up to \(path)")
        }
        guard rename(partialPath, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partialPath)
            throw SQLiteError(code: SQLITE_CANTOPEN, message: reason, operation: "rename the copy to \(path)")
        }
    }
}
