// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

/// Admission: counting rows by where they stand, making room for a new one, and
/// sweeping the expired.
extension SQLiteSessionStore {
    /// Rows added or removed by one transaction, by where they stood: applied to the
    /// counters as it goes (eviction reads them) and undone if it rolls back.
    struct RowChanges {
        var rows = 0
        var probationary = 0
        var users = 0

        mutating func add(_ standing: SessionStanding, _ count: Int = 1) {
            rows += count
            switch standing {
            case .probationary: probationary += count
            case .user: users += count
            case .established: break
            }
        }

        mutating func promote() { probationary -= 1 }
    }

    /// Applies `changes` to the row counters (`sign` -1 undoes them).
    func apply(_ changes: RowChanges, sign: Int = 1) {
        rows.add(sign * changes.rows, ordering: .relaxed)
        probationaryRows.add(sign * changes.probationary, ordering: .relaxed)
        userRows.add(sign * changes.users, ordering: .relaxed)
    }

    /// The file's rows by where they stand (counted on open).
    static func countRows(_ db: SQLiteDatabase) throws(SQLiteError) -> RowChanges {
        var changes = RowChanges()
        for row in try db.query("SELECT standing, count(*) FROM sessions GROUP BY standing") {
            guard let raw = row[0].integer, let count = row[1].integer else { continue }
            changes.add(SessionStanding(rawValue: UInt8(clamping: raw)) ?? .established, Int(count))
        }
        return changes
    }

    /// Counts one row removed outside a commit group (the sweep), by its `standing` column.
    func countRemoved(standing raw: Int64?) {
        var changes = RowChanges()
        changes.add(raw.flatMap { SessionStanding(rawValue: UInt8(clamping: $0)) } ?? .established)
        apply(changes, sign: -1)
    }

    /// Makes room for one more row standing as `standing`, in the writer's transaction:
    /// for an anonymous session, the oldest probationary rows while the reserve is on
    /// probation, else the least recently seen established ones; for a user's record, the
    /// least recently seen users' records once they fill their own budget. At least a
    /// sixteenth of the maximum, at most 1,000 rows a pass, so a full file pays the delete
    /// once per many inserts without one request doing a long transaction. Returns the ids
    /// removed (the caller drops them from the cache once the transaction commits).
    func makeRoom(for standing: SessionStanding, _ db: SQLiteDatabase, changes: inout RowChanges)
        throws(SQLiteError) -> [SessionID]
    {
        let victims: SessionStanding
        let held: Int
        switch standing {
        case .user:
            held = userRows.load(ordering: .relaxed)
            victims = .user
        case .probationary, .established:
            held = rows.load(ordering: .relaxed) - userRows.load(ordering: .relaxed)
            let probationary = probationaryRows.load(ordering: .relaxed)
            victims =
                probationary >= ProbationReserve.size(forCapacity: maxSessions) || held - probationary <= 0
                ? .probationary : .established
        }
        guard held >= maxSessions else { return [] }
        let batch = max(held - maxSessions + 1, min(maxSessions / 16, 1_000), 1)
        // Each through its own partial index (see `migrations`); the standing is a literal
        // so the planner can use it.
        let order =
            switch victims {
            case .probationary: "standing = 0 ORDER BY key"
            case .established: "standing = 1 ORDER BY last_seen"
            case .user: "standing = 2 ORDER BY last_seen"
            }
        let removed = try db.query(
            "DELETE FROM sessions WHERE key IN (SELECT key FROM sessions WHERE \(order) LIMIT ?) RETURNING id",
            [.integer(Int64(batch))])
        changes.add(victims, -removed.count)
        apply(reduce(victims, removed.count))
        counters.recordEvicted(victims, count: removed.count)
        return removed.compactMap { row in row.first?.bytes.flatMap { SessionID(bytes: $0) } }
    }

    /// The counter change of `count` rows of `standing` removed.
    private func reduce(_ standing: SessionStanding, _ count: Int) -> RowChanges {
        var changes = RowChanges()
        changes.add(standing, -count)
        return changes
    }

    /// Deletes the rows past their idle or absolute lifetime (probationary rows by their
    /// creation), and drops them from memory unless a write for them is still queued.
    @discardableResult
    public func sweep(now: Int64) throws(SessionStoreError) -> Int {
        try flush()
        let removed: Int = try write { db throws(SQLiteError) -> Int in
            // A probationary row's `last_seen` is its `created`.
            let deleted = try db.query(
                """
                DELETE FROM sessions WHERE created < ?2 OR (standing = 0 AND created < ?1)
                    OR (standing = 1 AND last_seen < ?1) OR (standing = 2 AND last_seen < ?1)
                RETURNING standing
                """,
                [.integer(now - lifetime.idle), .integer(now - lifetime.absolute)])
            for row in deleted { countRemoved(standing: row.first?.integer) }
            return deleted.count
        }
        memory.withLock { memory in
            memory.cache = memory.cache.filter {
                memory.unflushed[$0.key] != nil || !lifetime.isExpired($0.value.session, now: now)
            }
        }
        return removed
    }
}
