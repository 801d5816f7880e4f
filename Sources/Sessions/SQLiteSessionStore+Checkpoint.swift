// SPDX-License-Identifier: Apache-2.0
import Dispatch
import SQLite

extension SQLiteSessionStore {
    /// How often the background checkpoint runs.
    static let checkpointInterval: DispatchTimeInterval = .milliseconds(500)

    /// Copies the WAL into the database file every half second from a second connection
    /// (`PASSIVE`: it never blocks the writer). With `synchronous = NORMAL` the checkpoint
    /// is where SQLite calls `fsync`; SQLite's automatic checkpoint would run it inside
    /// the commit of whichever request crossed 1,000 pages, a 20–30 ms stall for that
    /// visitor. A commit is still durable against a killed process as soon as it is in the
    /// WAL. The chain ends when the store is gone.
    func scheduleCheckpoint() {
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + Self.checkpointInterval) {
            [weak self] in
            guard let self else { return }
            self.checkpoint()
            self.scheduleCheckpoint()
        }
    }

    /// One passive checkpoint; failures are left to the next one (writes report their own).
    func checkpoint() {
        checkpointer.withLock { db in _ = try? db.query("PRAGMA wal_checkpoint(PASSIVE)") }
    }
}
