// SPDX-License-Identifier: Apache-2.0
import SQLitePowerLoss
import TabServerSQLite
import Testing

/// Power loss, simulated: the write-merging VFS runs over `PowerLossVFS`, which keeps the
/// files in memory and can put each back to its last sync. At random points of a
/// workload the power goes out; after the crash the file must open, pass
/// `PRAGMA integrity_check`, and hold exactly the state after some commit that is no
/// earlier than the last one acknowledged before a sync of the log.
@Suite("SQLite over the write-merging VFS survives power loss", .serialized)
struct SQLitePowerLossTests {
    static let vfs = "tabserver-coalesce-over-powerloss"
    static let path = "powerloss.sqlite"

    @Test("1,000 random crash points: the file opens, is intact, and keeps every commit synced before the crash")
    func randomCrashPoints() throws {
        try PowerLossVFS.register()
        try SQLiteDatabase.registerCoalescingVFS(named: Self.vfs, over: PowerLossVFS.name)
        var random = SplitMix(seed: 0x7ab5)
        var crashes = 0
        var lostUnsynced = 0
        for workload in 0..<4 {
            let seed = UInt64(workload + 1) * 7919
            // A run with the power on measures how many operations the workload makes.
            let dry = try Self.run(seed: seed, failAfter: nil)
            try #require(
                dry.acknowledged.count == PowerLossWorkload.commits, "the workload runs to its end with the power on")
            try #require(dry.operations > 50 && dry.walSyncs > 2, "checkpoints sync the log during the workload")
            for _ in 0..<250 {
                let point = Int(random.next() % UInt64(dry.operations + 1))
                let outcome = try Self.run(seed: seed, failAfter: point)
                crashes += 1
                PowerLossVFS.crash()
                let found = try Self.recover()
                let synced = outcome.acknowledged.filter { $0.walSyncsAtAcknowledgement < outcome.walSyncs }
                let lastSynced = synced.last?.commit ?? 0
                #expect(found.integrity == "ok", "workload \(workload), crash after \(point) operations")
                #expect(
                    found.commit >= lastSynced && found.commit <= outcome.attempted,
                    "workload \(workload), crash after \(point): commit \(found.commit), synced \(lastSynced), attempted \(outcome.attempted)"
                )
                #expect(
                    found.rows == outcome.states[found.commit],
                    "workload \(workload), crash after \(point): rows of commit \(found.commit)")
                #expect(found.writable, "workload \(workload), crash after \(point): a commit after recovery")
                if found.commit < (outcome.acknowledged.last?.commit ?? 0) { lostUnsynced += 1 }
            }
        }
        #expect(crashes == 1_000)
        // The crashes must reach the interesting cases: acknowledged but unsynced commits lost.
        #expect(lostUnsynced > 0, "no crash lost an unsynced commit: the crash points miss the log")
        print("power loss: \(crashes) crashes, \(lostUnsynced) lost commits acknowledged after the last sync")
    }

    struct Acknowledgement {
        let commit: Int
        let walSyncsAtAcknowledgement: Int
    }

    struct Outcome {
        var acknowledged: [Acknowledgement] = []
        /// The highest commit begun (acknowledged or not).
        var attempted = 0
        var operations = 0
        var walSyncs = 0
        /// The rows after each commit (index 0: none).
        var states: [[Int64: [UInt8]]] = [[:]]
    }

    struct Recovered {
        var integrity = ""
        var commit = -1
        var rows: [Int64: [UInt8]] = [:]
        var writable = false
    }

    /// A store's settings: exclusive locking (the log's index on the heap, as the server
    /// runs it), 1 KiB pages, WAL with synchronous = NORMAL; checkpoints every 16 pages so
    /// a short workload syncs the log several times.
    static func open() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: path, vfs: vfs)
        try db.execute("PRAGMA locking_mode = EXCLUSIVE")
        try db.execute("PRAGMA page_size = 1024")
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = NORMAL")
        try db.execute("PRAGMA wal_autocheckpoint = 16")
        return db
    }

    /// Runs the workload of `seed` on fresh files, with the power going out after
    /// `failAfter` operations of the commit phase; stops at the first failure.
    static func run(seed: UInt64, failAfter: Int?) throws -> Outcome {
        PowerLossVFS.reset()
        var outcome = Outcome()
        do {
            let db = try open()
            try db.execute("CREATE TABLE meta (k INTEGER PRIMARY KEY, v INTEGER NOT NULL)")
            try db.execute("INSERT INTO meta VALUES (0, 0)")
            try db.execute("CREATE TABLE kv (id INTEGER PRIMARY KEY, value BLOB NOT NULL)")
            try db.execute("PRAGMA wal_checkpoint(FULL)")  // the schema is synced before the crashes begin
            let before = PowerLossVFS.operations
            PowerLossVFS.failAfter(failAfter)
            var workload = PowerLossWorkload(seed: seed)
            var rows: [Int64: [UInt8]] = [:]
            for commit in 1...PowerLossWorkload.commits {
                outcome.attempted = commit
                let changes = workload.changes(for: commit)
                do {
                    try db.execute("BEGIN IMMEDIATE")
                    try db.query("UPDATE meta SET v = ? WHERE k = 0", [.integer(Int64(commit))])
                    for change in changes {
                        if let value = change.value {
                            try db.query(
                                "INSERT OR REPLACE INTO kv VALUES (?, ?)", [.integer(change.id), .blob(value)])
                        } else {
                            try db.query("DELETE FROM kv WHERE id = ?", [.integer(change.id)])
                        }
                    }
                    try db.execute("COMMIT")
                } catch {
                    break  // the power went out
                }
                for change in changes { rows[change.id] = change.value }
                outcome.states.append(rows)
                outcome.acknowledged.append(
                    Acknowledgement(commit: commit, walSyncsAtAcknowledgement: PowerLossVFS.walSyncs))
            }
            outcome.operations = PowerLossVFS.operations - before
            outcome.walSyncs = PowerLossVFS.walSyncs
        }  // closed here: with the power out, the checkpoint on close fails too
        return outcome
    }

    /// Opens the file after the crash and reads what it holds.
    static func recover() throws -> Recovered {
        var found = Recovered()
        let db = try open()
        if case .text(let text) = try db.query("PRAGMA integrity_check").first?.first { found.integrity = text }
        if case .integer(let commit) = try db.query("SELECT v FROM meta WHERE k = 0").first?.first {
            found.commit = Int(commit)
        }
        for row in try db.query("SELECT id, value FROM kv") {
            if case .integer(let id) = row[0], case .blob(let value) = row[1] { found.rows[id] = value }
        }
        try db.execute("BEGIN IMMEDIATE")
        try db.query("UPDATE meta SET v = v + 1000 WHERE k = 0")
        try db.execute("COMMIT")
        found.writable =
            try db.query("SELECT v FROM meta WHERE k = 0").first?.first == .integer(Int64(found.commit + 1000))
        return found
    }
}

/// The commits of one workload, the same for a seed: a few rows written or deleted each,
/// of sizes within a page, over a page, and once a row over the VFS's 120 KiB buffer.
struct PowerLossWorkload {
    static let commits = 40
    private var random: SplitMix

    init(seed: UInt64) { random = SplitMix(seed: seed) }

    struct Change {
        let id: Int64
        let value: [UInt8]?
    }

    mutating func changes(for commit: Int) -> [Change] {
        if commit == 20 { return [Change(id: 999, value: [UInt8](repeating: 0xa5, count: 130_000))] }
        return (0..<(1 + Int(random.next() % 5))).map { _ in
            let id = Int64(random.next() % 40)
            if random.next() % 8 == 0 { return Change(id: id, value: nil) }
            let size = [60, 700, 2_500][Int(random.next() % 3)]
            return Change(
                id: id, value: [UInt8](repeating: UInt8(truncatingIfNeeded: Int(id) &* 31 &+ commit), count: size))
        }
    }
}
