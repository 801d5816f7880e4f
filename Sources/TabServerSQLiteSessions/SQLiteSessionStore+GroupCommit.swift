// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerSessions

extension SQLiteSessionStore {
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
        memory.unflushed[id] = memory.group
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
                        }
                    }
                    for (batch, failedGroup) in failed {
                        for write in batch where memory.awaited[write.id] !== failedGroup {
                            if case .touch = write { continue }
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
        let insert: SQLiteStatement
        let update: SQLiteStatement
        /// `update` that also refreshes `last_seen`.
        let updateTouching: SQLiteStatement
        let touch: SQLiteStatement
        let delete: SQLiteStatement

        init(_ db: SQLiteDatabase) throws(SQLiteError) {
            insert = try db.prepare(
                "INSERT INTO sessions (key, id, revision, data, created, last_seen) VALUES (?, ?, ?, ?, ?, ?)")
            update = try db.prepare("UPDATE sessions SET revision = ?, data = ? WHERE key = ? AND revision = ?")
            updateTouching = try db.prepare(
                "UPDATE sessions SET revision = ?, data = ?, last_seen = ? WHERE key = ? AND revision = ?")
            touch = try db.prepare("UPDATE sessions SET last_seen = ? WHERE key = ?")
            delete = try db.prepare("DELETE FROM sessions WHERE id = ?")
        }
    }

    /// One transaction for `writes`; returns the ids removed to stay under `maxSessions`.
    private func commit(_ writes: [PendingWrite]) throws(SessionStoreError) -> [SessionID] {
        let statements = writerStatements
        return try write { db throws(SQLiteError) -> [SessionID] in
            // Prepared once (`query`), not parsed again for each group (`execute`).
            try db.query("BEGIN IMMEDIATE")
            // `rows` follows each statement (eviction reads it); a rollback undoes `added`.
            var added = 0
            func count(_ change: Int) {
                added += change
                rows.add(change, ordering: .relaxed)
            }
            // One buffer encodes every session of the group; ids are bound from the stack.
            var encoded = SessionBytesWriter(capacity: 256)
            do throws(SQLiteError) {
                var evicted: [SessionID] = []
                for write in writes {
                    switch write {
                    case .insert(let session, let key):
                        let removed = try evictLeastRecentlyUsed(db)
                        evicted += removed
                        encoded.removeAll()
                        SessionCodec.encode(session, into: &encoded)
                        try db.run(statements.insert) { bind throws(SQLiteError) in
                            try bind.integer(key, at: 1)
                            try session.id.withUnsafeBytes { id throws(SQLiteError) in try bind.blob(id, at: 2) }
                            try bind.integer(Int64(session.revision), at: 3)
                            try bind.blob(encoded.bytes, at: 4)
                            try bind.integer(session.created, at: 5)
                            try bind.integer(session.lastSeen, at: 6)
                        }
                        count(1 - removed.count)
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
                    case .delete(let id):
                        let changed = try db.run(statements.delete) { bind throws(SQLiteError) in
                            try id.withUnsafeBytes { id throws(SQLiteError) in try bind.blob(id, at: 1) }
                        }
                        count(-changed)
                    }
                }
                try db.query("COMMIT")
                return evicted
            } catch {
                try? db.execute("ROLLBACK")
                rows.subtract(added, ordering: .relaxed)
                throw error
            }
        }
    }
}
