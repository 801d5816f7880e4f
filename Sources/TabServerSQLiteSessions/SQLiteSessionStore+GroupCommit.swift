// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

extension SQLiteSessionStore {
    /// Calls `done` once the writes of `ids` accepted so far are committed (nil) or
    /// failed; false, without calling it, when none is waiting.
    public func whenDurable(_ ids: [SessionID], _ done: @escaping @Sendable (SessionStoreError?) -> Void) -> Bool {
        // Groups commit in order: the latest one suffices, unless one of them has failed
        // already (then it is reported, once: the request that wrote asks first).
        let group = memory.withLock { memory -> CommitGroup? in
            var latest: CommitGroup?
            for id in ids {
                guard let group = memory.unflushed[id] else { continue }
                if group.hasFailed {
                    memory.unflushed[id] = nil
                    return group
                }
                memory.awaited[id] = group
                if latest !== memory.group { latest = group }
            }
            return latest
        }
        guard let group else { return false }
        group.whenDone(done)
        return true
    }

    /// Waits until every write accepted so far is committed; throws if one failed (or the
    /// store is down since the last failed write).
    public func flush() throws(SessionStoreError) {
        let group = memory.withLock { memory -> CommitGroup? in
            memory.pending.isEmpty ? memory.committing : memory.group
        }
        if let error = group?.wait() { throw error }
        // Committed before this call, and failed: the store is down until a write succeeds.
        if let failure = health.lastFailure { throw failure }
    }

    /// Queues a write (the caller holds `memory`'s lock and has applied it there) and
    /// wakes the writer if it is idle. An update right after another of the same session
    /// in the queue replaces it: the row is written once, from the older revision.
    func enqueue(_ write: PendingWrite, in memory: inout Memory) {
        let id = write.id
        if case .update(let session, let key, _, let touches) = write, let index = memory.pendingUpdate[id],
            case .update(_, _, let expected, let touchedBefore) = memory.pending[index]
        {
            memory.pending[index] = .update(session, key: key, expected: expected, touches: touches || touchedBefore)
        } else {
            memory.pendingUpdate[id] = nil
            if case .update = write { memory.pendingUpdate[id] = memory.pending.count }
            memory.pending.append(write)
        }
        // A touch or a promotion changes nothing a visitor sees: no answer waits for it,
        // and losing it to a failed commit loses only a little recency.
        switch write {
        case .touch, .promote: break
        case .insert, .update:
            memory.unflushed[id] = memory.group
            memory.deleting[id] = nil
        case .delete:
            memory.unflushed[id] = memory.group
            memory.deleting[id] = memory.group
        }
        guard !memory.writing else { return }
        memory.writing = true
        writer.wake()
    }

    /// The writer: commits what is queued, one group per transaction, until the queue is
    /// empty. Writes arriving during a commit form the next group.
    func commitQueued() {
        while true {
            let taken = memory.withLock { memory -> (writes: [PendingWrite], group: CommitGroup)? in
                memory.committing = nil
                guard !memory.pending.isEmpty else {
                    memory.writing = false
                    return nil
                }
                defer {
                    memory.pending = []
                    memory.pendingUpdate = [:]
                    memory.committing = memory.group
                    memory.group = CommitGroup()
                }
                return (memory.pending, memory.group)
            }
            guard let (writes, group) = taken else { return }
            do {
                let evicted = try commit(writes)
                memory.withLock { memory in
                    for write in writes {
                        if memory.unflushed[write.id] === group { memory.unflushed[write.id] = nil }
                        if memory.awaited[write.id] === group { memory.awaited[write.id] = nil }
                        if memory.deleting[write.id] === group { memory.deleting[write.id] = nil }
                    }
                    for id in evicted where memory.unflushed[id] == nil { memory.cache[id] = nil }
                }
                group.finish(nil)
            } catch {
                // Nothing of this group reached the file, and later writes rest on it: fail
                // them all, and forget their sessions here so the next load reads the file.
                // A failed insert or update stays noted until its request asks (`whenDurable`),
                // which may come after this.
                let later = memory.withLock { memory -> CommitGroup in
                    let later = memory.group
                    let failed = [(writes, group), (memory.pending, later)]
                    for (batch, _) in failed {
                        for write in batch {
                            memory.cache[write.id] = nil
                            memory.unflushed[write.id] = nil
                            // A failed delete removed nothing: the file's row is the session.
                            memory.deleting[write.id] = nil
                        }
                    }
                    for (batch, failedGroup) in failed {
                        for write in batch where memory.awaited[write.id] !== failedGroup {
                            if case .touch = write { continue }
                            if case .promote = write { continue }
                            if case .delete = write { continue }
                            memory.unflushed[write.id] = failedGroup
                        }
                    }
                    for (batch, _) in failed {
                        for write in batch { memory.awaited[write.id] = nil }
                    }
                    memory.pending = []
                    memory.pendingUpdate = [:]
                    memory.group = CommitGroup()
                    return later
                }
                group.finish(error)
                later.finish(error)
            }
        }
    }

    /// The writer's statements, prepared once when the store opens.
    struct WriterStatements: Sendable {
        /// Binds key, id, revision, data, created, last seen and standing.
        let insert: SQLiteStatement
        let update: SQLiteStatement
        /// `update` that also refreshes `last_seen`.
        let updateTouching: SQLiteStatement
        let touch: SQLiteStatement
        let promote: SQLiteStatement

        init(_ db: SQLiteDatabase) throws(SQLiteError) {
            insert = try db.prepare(
                "INSERT INTO sessions (key, id, revision, data, created, last_seen, standing) VALUES (?, ?, ?, ?, ?, ?, ?)"
            )
            update = try db.prepare("UPDATE sessions SET revision = ?, data = ? WHERE key = ? AND revision = ?")
            updateTouching = try db.prepare(
                "UPDATE sessions SET revision = ?, data = ?, last_seen = ? WHERE key = ? AND revision = ?")
            touch = try db.prepare("UPDATE sessions SET last_seen = ? WHERE key = ?")
            promote = try db.prepare("UPDATE sessions SET standing = 1, last_seen = ? WHERE key = ? AND standing = 0")
        }
    }

    /// One transaction for `writes`; returns the ids removed to stay under `maxSessions`.
    private func commit(_ writes: [PendingWrite]) throws(SessionStoreError) -> [SessionID] {
        let statements = writerStatements
        return try write { db throws(SQLiteError) -> [SessionID] in
            // Prepared once (`query`), not parsed again for each group (`execute`).
            try db.query("BEGIN IMMEDIATE")
            // The row counters follow each statement (eviction reads them); a rollback
            // undoes `changes`.
            var changes = RowChanges()
            func count(_ standing: SessionStanding, _ change: Int) {
                var delta = RowChanges()
                delta.add(standing, change)
                changes.add(standing, change)
                apply(delta)
            }
            // One buffer encodes every session of the group; ids are bound from the stack.
            var encoded = SessionBytesWriter(capacity: 256)
            do throws(SQLiteError) {
                var evicted: [SessionID] = []
                for write in writes {
                    switch write {
                    case .insert(let session, let key, let standing):
                        evicted += try makeRoom(for: standing, db, changes: &changes)
                        encoded.removeAll()
                        SessionCodec.encode(session, into: &encoded)
                        try db.run(statements.insert) { bind throws(SQLiteError) in
                            try bind.integer(key, at: 1)
                            try session.id.withUnsafeBytes { id throws(SQLiteError) in try bind.blob(id, at: 2) }
                            try bind.integer(Int64(session.revision), at: 3)
                            try bind.blob(encoded.bytes, at: 4)
                            try bind.integer(session.created, at: 5)
                            try bind.integer(session.lastSeen, at: 6)
                            try bind.integer(Int64(standing.rawValue), at: 7)
                        }
                        count(standing, 1)
                    case .update(let session, let key, let expected, let touches):
                        encoded.removeAll()
                        SessionCodec.encode(session, into: &encoded)
                        try db.run(touches ? statements.updateTouching : statements.update) {
                            bind throws(SQLiteError) in
                            try bind.integer(Int64(session.revision), at: 1)
                            try bind.blob(encoded.bytes, at: 2)
                            var next: Int32 = 3
                            if touches {
                                try bind.integer(session.lastSeen, at: next)
                                next += 1
                            }
                            try bind.integer(key, at: next)
                            try bind.integer(Int64(expected), at: next + 1)
                        }
                    // (No row changed: the session was deleted meanwhile, expired or swept.)
                    case .touch(_, let key, let lastSeen):
                        try db.run(statements.touch) { bind throws(SQLiteError) in
                            try bind.integer(lastSeen, at: 1)
                            try bind.integer(key, at: 2)
                        }
                    case .promote(_, let key, let lastSeen):
                        let changed = try db.run(statements.promote) { bind throws(SQLiteError) in
                            try bind.integer(lastSeen, at: 1)
                            try bind.integer(key, at: 2)
                        }
                        if changed == 1 {
                            count(.probationary, -1)
                            count(.established, 1)
                        }
                    case .delete(let id):
                        // Rare (an expired session found): not prepared.
                        for row in try db.query(
                            "DELETE FROM sessions WHERE id = ? RETURNING standing", [.blob(id.bytes)])
                        {
                            let standing = row.first?.integer.flatMap { SessionStanding(rawValue: UInt8(clamping: $0)) }
                            count(standing ?? .established, -1)
                        }
                    }
                }
                try db.query("COMMIT")
                return evicted
            } catch {
                try? db.execute("ROLLBACK")
                apply(changes, sign: -1)
                throw error
            }
        }
    }
}
