// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

extension SQLiteSessionStore {
    /// Makes room for one more row under `maxSessions` by deleting the least recently
    /// used (smallest `last_seen`, through its index): at least a sixteenth of the
    /// maximum, but at most 1,000 rows in one pass, so a full file pays the delete once
    /// per many inserts without one request doing a long transaction. Returns the ids
    /// removed (the caller drops them from the cache once the transaction commits).
    func evictLeastRecentlyUsed(_ db: SQLiteDatabase) throws(SQLiteError) -> [SessionID] {
        let count = rows.load(ordering: .relaxed)
        guard count >= maxSessions else { return [] }
        let batch = max(count - maxSessions + 1, min(maxSessions / 16, 1_000), 1)
        let removed = try db.query(
            "DELETE FROM sessions WHERE key IN (SELECT key FROM sessions ORDER BY last_seen LIMIT ?) RETURNING id",
            [.integer(Int64(batch))])
        return removed.compactMap { row in row.first?.bytes.flatMap { SessionID(bytes: $0) } }
    }
}
