// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

extension SQLiteSessionStore {
    /// Runs a write under the connection's lock. Its success tells `health` that writes
    /// work (ending an outage); its failure starts one (logged once, probed in the
    /// background) and is thrown as a `SessionStoreError`.
    @discardableResult
    func write<Value: Sendable>(_ body: (SQLiteDatabase) throws(SQLiteError) -> Value) throws(SessionStoreError)
        -> Value
    {
        let result = database.withLock { db -> Result<Value, SQLiteError> in
            do throws(SQLiteError) {
                return .success(try body(db))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value):
            health.recordSuccess()
            return value
        case .failure(let error):
            throw failed(error)
        }
    }

    /// Records a failed statement (read or write) with `health` and returns it as the
    /// store's error.
    func failed(_ error: SQLiteError) -> SessionStoreError {
        let failure = SessionStoreError("sqlite \(path): \(error)")
        health.recordFailure(failure) { [weak self] in self?.probeWrite() ?? true }
        return failure
    }

    /// The background probe: rewrites the one row of `probe`, a real write transaction
    /// (to the WAL), so it fails exactly when session writes would.
    func probeWrite() -> Bool {
        do {
            try write { db throws(SQLiteError) in
                try db.query(
                    "INSERT OR REPLACE INTO probe (id, at) VALUES (1, (SELECT coalesce(max(at), 0) + 1 FROM probe))")
            }
            return true
        } catch {
            return false
        }
    }

    /// Test hook: makes this connection refuse every write (`PRAGMA query_only`) as a
    /// read-only file would (`SQLITE_READONLY`), while reads go on working. Tests run as
    /// root, which ignores file permissions, so a `chmod` cannot make the file read-only.
    func setQueryOnly(_ queryOnly: Bool) {
        database.withLock { db in try? db.execute("PRAGMA query_only = \(queryOnly ? "ON" : "OFF")") }
    }

    /// False while writes fail (until a request's write or the background probe
    /// succeeds); otherwise whether the file answers a query.
    public func checkReady() -> Bool {
        // What is queued settles first: its commit may end (or start) an outage.
        _ = try? flush()
        guard health.isUp else { return false }
        return (try? run("SELECT 1")) != nil
    }
}
