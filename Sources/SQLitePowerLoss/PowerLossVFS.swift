// SPDX-License-Identifier: Apache-2.0
import CSQLitePowerLossVFS

/// For tests only: a SQLite VFS that keeps its files in memory and simulates power loss
/// (`CSQLitePowerLossVFS`). Every file remembers what it held at its last sync; `crash()`
/// puts each back to that, discarding everything written since, and `failAfter(_:)`
/// makes the power go out after a given number of writes, truncates, syncs and deletes.
/// The files and counters are one set per process: one test at a time may use it.
///
/// ```swift
/// try PowerLossVFS.register()
/// try SQLiteDatabase.registerCoalescingVFS(named: "coalesce-over-powerloss", over: PowerLossVFS.name)
/// PowerLossVFS.failAfter(120)      // the 121st write or sync fails, and all after it
/// // … commit until one fails, close …
/// PowerLossVFS.crash()             // back to the last syncs; reopen and check
/// ```
public enum PowerLossVFS {
    /// The name it is registered under.
    public static let name = "tabserver-powerloss"

    /// A registration that SQLite refused, with its result code.
    public struct RegistrationError: Error, Sendable {
        /// SQLite's result code.
        public let code: Int32
    }

    /// Registers the VFS (once; later calls only return).
    public static func register() throws(RegistrationError) {
        let status = tabserver_powerloss_register(name)
        guard status == 0 else { throw RegistrationError(code: status) }
    }

    /// After `operations` more writes, truncates, syncs and deletes, every one fails (the
    /// power is out); nil: the power stays on.
    public static func failAfter(_ operations: Int?) {
        tabserver_powerloss_fail_after(operations ?? -1)
    }

    /// The power loss: every file goes back to its content at its last sync, and the
    /// power is on again.
    public static func crash() { tabserver_powerloss_crash() }

    /// Forgets every file and zeroes the counters; no file may be open.
    public static func reset() { tabserver_powerloss_reset() }

    /// Writes, truncates, syncs and deletes that succeeded since the last reset.
    public static var operations: Int { tabserver_powerloss_operations() }

    /// Syncs of write-ahead logs that succeeded since the last reset.
    public static var walSyncs: Int { tabserver_powerloss_wal_syncs() }
}
