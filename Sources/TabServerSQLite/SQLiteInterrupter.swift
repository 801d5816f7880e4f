// SPDX-License-Identifier: Apache-2.0
import CSQLite
import Synchronization

/// Stops one connection's statements from any thread.
///
/// `interrupt()` stops the statement running now (`sqlite3_interrupt`, which SQLite
/// allows from another thread while the connection is open). `stopping` is a request that
/// also holds for statements not started yet: SQLite's progress handler reads it every
/// few hundred virtual-machine steps and stops the statement while it is set, so a stop
/// asked just before a statement begins is not lost (`sqlite3_interrupt` does nothing
/// when no statement runs). Either way the statement fails with `SQLITE_INTERRUPT`
/// (code 9) and its transaction rolls back.
///
/// Made by the connection's owner, which keeps the connection open as long as the
/// interrupter lives.
final class SQLiteInterrupter: @unchecked Sendable {
    // Unchecked: only `sqlite3_interrupt` is ever called with the handle from another
    // thread, which SQLite makes safe; the owner outlives every call (see above).
    private let handle: OpaquePointer
    /// Whether statements on the connection stop (read by the progress handler).
    let stopping = Atomic<Bool>(false)

    /// Installs the progress handler on `database`; nothing stops until `stopping` is set.
    init(_ database: SQLiteDatabase) {
        handle = database.handle
        sqlite3_progress_handler(
            handle, 500,
            { context in
                guard let context else { return 0 }
                let interrupter = Unmanaged<SQLiteInterrupter>.fromOpaque(context).takeUnretainedValue()
                return interrupter.stopping.load(ordering: .relaxed) ? 1 : 0
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        sqlite3_progress_handler(handle, 0, nil, nil)
    }

    /// Interrupts the statement running now; nothing when none runs.
    func interrupt() {
        sqlite3_interrupt(handle)
    }
}
