// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

/// What tests and diagnostics ask of the file.
extension SQLiteSessionStore: SessionCounting {
    /// The rows in the file, counted as they are committed (no query; `/metrics`).
    public var rowCount: Int { rows.load(ordering: .relaxed) }

    /// The rows in the file, counted as they are committed (`/metrics`).
    public var sessionCount: Int { rowCount }

    /// The number of rows, counted by the file after a flush (tests and diagnostics).
    public func count() throws(SessionStoreError) -> Int {
        try flush()
        return Int(try run("SELECT count(*) FROM sessions").first?.first?.integer ?? 0)
    }

    /// The session as the file holds it, whatever this process has accepted since: what
    /// a restart would load (tests and diagnostics; `flush()` first to include everything).
    public func fileRow(_ id: SessionID) throws(SessionStoreError) -> Session? {
        let rows = try run("SELECT revision, data FROM sessions WHERE id = ?", [.blob(id.bytes)])
        guard let row = rows.first, let revision = row[0].integer, let data = row[1].bytes else { return nil }
        return try? SessionCodec.decode(data, id: id, revision: Int(revision))
    }

    /// `PRAGMA integrity_check` says "ok".
    public func integrityCheck() throws(SessionStoreError) -> Bool {
        try flush()
        return try run("PRAGMA integrity_check").first?.first == .text("ok")
    }

    /// Where the file's row of `id` stands, whatever this process has accepted since
    /// (tests and diagnostics; `flush()` first to include everything); nil: no row.
    public func fileStanding(_ id: SessionID) throws(SessionStoreError) -> SessionStanding? {
        let rows = try run("SELECT standing FROM sessions WHERE id = ?", [.blob(id.bytes)])
        return rows.first?.first?.integer.flatMap { SessionStanding(rawValue: UInt8(clamping: $0)) }
    }
}
