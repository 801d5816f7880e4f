// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerTesting
import Testing

/// The VFS that merges the write-ahead log's writes (`coalescingWrites`): every
/// transaction must be in the file, for any other reader, as soon as COMMIT returns.
@Suite("SQLite with coalesced WAL writes")
struct SQLiteCoalescingWritesTests {
    @Test("each commit is visible to a second connection (another process's view) at once, large ones too")
    func commitsReachTheFile() throws {
        let path = TestFixtures.temporaryDirectory("sqlite-vfs") + "/data.sqlite"
        let writer = try SQLiteDatabase(path: path, coalescingWrites: true)
        try writer.execute("PRAGMA journal_mode = WAL")
        try writer.execute("PRAGMA synchronous = NORMAL")
        try writer.execute("CREATE TABLE rows (id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
        // A plain connection (default VFS) that reads the file as another process would.
        let reader = try SQLiteDatabase(path: path)
        for round in 1...40 {
            // Small transactions, and every tenth one larger than the VFS's 120 KiB buffer.
            let size = round % 10 == 0 ? 400_000 : 300
            try writer.execute("BEGIN IMMEDIATE")
            for index in 0..<5 {
                try writer.query(
                    "INSERT INTO rows (id, data) VALUES (?, ?)",
                    [.integer(Int64(round * 10 + index)), .blob([UInt8](repeating: UInt8(round), count: size))])
            }
            try writer.execute("COMMIT")
            let seen = try reader.query(
                "SELECT count(*), sum(length(data)) FROM rows WHERE id / 10 = ?",
                [
                    .integer(Int64(round))
                ])
            #expect(seen.first?[0] == .integer(5), "round \(round)")
            #expect(seen.first?[1] == .integer(Int64(5 * size)), "round \(round)")
        }
        // Rewrites of the same pages, then a checkpoint, which reads the log back.
        try writer.execute("UPDATE rows SET data = x'00'")
        try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        #expect(try reader.query("SELECT count(*) FROM rows WHERE length(data) = 1").first?[0] == .integer(200))
        #expect(try reader.query("PRAGMA integrity_check").first?.first == .text("ok"))
    }
}
