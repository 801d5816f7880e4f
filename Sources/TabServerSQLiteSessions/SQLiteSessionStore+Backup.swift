// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

#if canImport(Glibc)
    import Glibc
#endif

extension SQLiteSessionStore: BackingUpSessionStore {
    /// `backup(to:)` with its defaults.
    public func writeBackup(to destination: String) throws(SessionStoreError) -> Int {
        try backup(to: destination)
    }

    /// Writes a consistent copy of the store to `path` while it keeps serving. The file is
    /// in `locking_mode = EXCLUSIVE`, so no other connection may read it: the copy is made
    /// on this store's own connection with SQLite's backup API, `pagesPerStep` pages at a
    /// time under the connection's lock, which the writer takes in between to commit
    /// (its commits are carried into the copy). Every write acknowledged before the call
    /// is in the copy, and so is every write committed while it is made. Blocks the
    /// calling thread until done: call it off the engine.
    ///
    /// `betweenSteps` runs after each step with the lock released; by default it pauses
    /// 100 µs, so a writer waiting for the lock gets it (a lock released and taken again
    /// at once would let the copy starve the writer). Returns the number of pages copied.
    @discardableResult
    public func backup(
        to path: String, pagesPerStep: Int32 = 256, betweenSteps: () -> Void = { usleep(100) }
    ) throws(SessionStoreError) -> Int {
        let started = database.withLock { db -> Result<SQLiteBackup, SQLiteError> in
            do throws(SQLiteError) {
                return .success(try SQLiteBackup(from: db, to: path))
            } catch {
                return .failure(error)
            }
        }
        let backup: SQLiteBackup
        switch started {
        case .success(let value): backup = value
        case .failure(let error): throw SessionStoreError("backup to \(path): \(error)")
        }
        let outcome = { () -> Result<Int, SQLiteError> in
            while true {
                let stepped = database.withLock { _ -> Result<Bool, SQLiteError> in
                    do throws(SQLiteError) {
                        return .success(try backup.step(pages: pagesPerStep))
                    } catch {
                        return .failure(error)
                    }
                }
                switch stepped {
                case .success(true):
                    return database.withLock { _ -> Result<Int, SQLiteError> in
                        do throws(SQLiteError) {
                            try backup.finish()
                            return .success(Int(backup.pagesCopied))
                        } catch {
                            return .failure(error)
                        }
                    }
                case .success(false):
                    betweenSteps()  // the writer's turn
                case .failure(let error):
                    return .failure(error)
                }
            }
        }()
        // A failed copy ends under the lock too, like every use of the connection (after
        // `finish`, releasing the backup no longer touches the store's connection).
        if case .failure = outcome { database.withLock { _ in try? backup.finish() } }
        switch outcome {
        case .success(let pages): return pages
        case .failure(let error): throw SessionStoreError("backup to \(path): \(error)")
        }
    }
}
