// SPDX-License-Identifier: Apache-2.0
import CSQLite

/// Stops the statement running on one connection from any thread (`sqlite3_interrupt`,
/// which SQLite allows from another thread while the connection is open): the statement
/// fails with `SQLITE_INTERRUPT` (code 9) and its transaction rolls back. Made by the
/// connection's owner, which keeps the connection open as long as the interrupter lives.
struct SQLiteInterrupter: @unchecked Sendable {
    // Unchecked: only `sqlite3_interrupt` is ever called with the handle, which SQLite
    // makes safe from any thread; the owner outlives every call (see above).
    private let handle: OpaquePointer

    init(_ database: SQLiteDatabase) {
        handle = database.handle
    }

    /// Interrupts the statement running now; nothing when none runs.
    func interrupt() {
        sqlite3_interrupt(handle)
    }
}
