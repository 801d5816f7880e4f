// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerTesting
import Testing

@testable import TabServerSessions

/// The writer's path into SQLite: statements prepared once and bound in place.
@Suite("SQLite prepared statements")
struct SQLiteStatementTests {
    func database() throws -> SQLiteDatabase {
        let db = try SQLiteDatabase(path: TestFixtures.temporaryDirectory("sqlite-statement") + "/t.sqlite")
        try db.execute("CREATE TABLE t (id BLOB PRIMARY KEY, n INTEGER NOT NULL, data BLOB NOT NULL)")
        return db
    }

    @Test("binds integers and blobs in place, runs many times, and counts the rows changed")
    func bindsAndCounts() throws {
        let db = try database()
        let insert = try db.prepare("INSERT INTO t (id, n, data) VALUES (?, ?, ?)")
        let ids = (0..<3).map { _ in SessionID.generate() }
        for (n, id) in ids.enumerated() {
            let changed = try db.run(insert) { bind throws(SQLiteError) in
                try id.withUnsafeBytes { bytes throws(SQLiteError) in try bind.blob(bytes, at: 1) }
                try bind.integer(Int64(n), at: 2)
                try bind.blob([UInt8(n), 0xFF], at: 3)
            }
            #expect(changed == 1)
        }
        let rows = try db.query("SELECT id, n, data FROM t ORDER BY n")
        #expect(rows.map { $0[0].bytes.flatMap(SessionID.init(bytes:)) } == ids)
        #expect(rows.map { $0[2] } == [.blob([0, 0xFF]), .blob([1, 0xFF]), .blob([2, 0xFF])])
        let bump = try db.prepare("UPDATE t SET n = n + 10 WHERE n >= ?")
        #expect(try db.run(bump) { bind throws(SQLiteError) in try bind.integer(1, at: 1) } == 2)
        // The bindings of one run do not leak into the next: unbound is NULL.
        #expect(try db.run(bump) { _ throws(SQLiteError) in } == 0)
    }

    @Test("each text runs its own statement: 300 texts built at run time and literals, short and long, share 64 slots")
    func textsNeverMixedUp() throws {
        let db = try database()
        for round in 0..<3 {
            for n in 0..<300 {
                // A new string each time: another value, the same text as the round before.
                let sql = n % 2 == 0 ? "SELECT \(n)" : "SELECT \(n) AS value_of_a_longer_statement"
                #expect(try db.query(sql) == [[.integer(Int64(n))]], "round \(round), text \(n)")
                #expect(try db.query("SELECT 'short'") == [[.text("short")]])
                #expect(
                    try db.query("SELECT 'a literal longer than fifteen bytes'") == [
                        [.text("a literal longer than fifteen bytes")]
                    ])
            }
        }
    }

    @Test("a failing run throws with the statement named, and the statement works again after")
    func failures() throws {
        let db = try database()
        let insert = try db.prepare("INSERT INTO t (id, n, data) VALUES (?, ?, ?)")
        let id = SessionID.generate()
        func add() throws(SQLiteError) -> Int {
            try db.run(insert) { bind throws(SQLiteError) in
                try id.withUnsafeBytes { bytes throws(SQLiteError) in try bind.blob(bytes, at: 1) }
                try bind.integer(1, at: 2)
                try bind.blob([1], at: 3)
            }
        }
        #expect(try add() == 1)
        #expect { _ = try add() } throws: { error in
            (error as? SQLiteError)?.operation.contains("INSERT INTO t") == true
        }
        #expect(throws: SQLiteError.self, "parameter 4 does not exist") {
            try db.run(insert) { bind throws(SQLiteError) in try bind.integer(1, at: 4) }
        }
        let rows = try db.prepare("SELECT n FROM t")
        #expect(throws: SQLiteError.self, "a statement that returns rows is for query") {
            try db.run(rows) { _ throws(SQLiteError) in }
        }
        try db.execute("DELETE FROM t")
        #expect(try add() == 1)
    }

    @Test("query binds every kind of value through the same bindings, an empty blob as a blob")
    func queryValues() throws {
        let db = try database()
        let values: [SQLiteValue] = [.null, .integer(-7), .text("grüß"), .blob([]), .blob([0, 1])]
        for value in values {
            #expect(try db.query("SELECT ?", [value]).first?.first == value)
        }
        #expect(try db.query("SELECT typeof(?)", [.blob([])]).first?.first == .text("blob"))
    }

    @Test("an id's bytes from the stack are its bytes")
    func idBytes() {
        for _ in 0..<20 {
            let id = SessionID.generate()
            #expect(id.withUnsafeBytes { Array($0) } == id.bytes)
        }
    }
}
