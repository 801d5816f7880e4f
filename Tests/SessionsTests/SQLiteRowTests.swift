// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite
import TabServerTesting
import Testing

/// An app's own tables: typed rows, transactions and migrations on a real SQLite file.
@Suite("SQLite for apps")
struct SQLiteRowTests {
    struct Habit: Decodable, Equatable {
        enum Kind: String, Decodable { case daily, weekly }
        var id: Int64
        var name: String
        var kind: Kind
        var done: Bool
        var weight: Double
        var note: String?
        var icon: [UInt8]
    }

    static let schema = [
        """
        CREATE TABLE habits (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, done INTEGER NOT NULL,
            weight REAL NOT NULL, note TEXT, icon BLOB NOT NULL)
        """,
        "CREATE INDEX habits_by_name ON habits (name)",
    ]

    func database() throws -> SQLiteDatabase {
        // A folder that does not exist yet: made on open.
        let db = try SQLiteDatabase(
            path: TestFixtures.temporaryDirectory("sqlite-rows") + "/nested/folder/app.sqlite",
            creatingDirectories: true)
        try db.migrate(Self.schema)
        return db
    }

    @Test("rows decode into Codable types by column name: integers, Bool, enums, reals, NULL, blobs")
    func decodesRows() throws {
        let db = try database()
        try db.query(
            "INSERT INTO habits VALUES (1, 'Run', 'daily', 1, 2.5, NULL, x'0102'), (2, 'Read', 'weekly', 0, 1, 'x', x'')"
        )
        let habits = try db.query("SELECT * FROM habits ORDER BY id", as: Habit.self)
        #expect(
            habits == [
                Habit(id: 1, name: "Run", kind: .daily, done: true, weight: 2.5, note: nil, icon: [1, 2]),
                Habit(id: 2, name: "Read", kind: .weekly, done: false, weight: 1, note: "x", icon: []),
            ])
        let row = try #require(try db.rows("SELECT name AS title, weight FROM habits WHERE id = 1").first)
        #expect(row.columns == ["title", "weight"])
        #expect(row["title"]?.text == "Run")
        #expect(row["weight"] == .real(2.5))
        #expect(row["name"] == nil)
    }

    @Test("a column that does not fit its property throws, naming both")
    func mismatchNamesTheColumn() throws {
        let db = try database()
        try db.query("INSERT INTO habits VALUES (1, 'Run', 'hourly', 1, 1, NULL, x'')")
        #expect {
            try db.query("SELECT * FROM habits", as: Habit.self)
        } throws: { error in
            "\(error)".contains("kind")
        }
        struct Named: Decodable { var id: String }
        #expect {
            try db.query("SELECT id FROM habits", as: Named.self)
        } throws: { error in
            "\(error)".contains("column 'id': expected String, found the integer 1")
        }
        struct Missing: Decodable { var streak: Int }
        #expect {
            try db.query("SELECT id FROM habits", as: Missing.self)
        } throws: { error in
            "\(error)".contains("no column 'streak'")
        }
    }

    @Test("a transaction commits when its body returns and rolls back everything when it throws")
    func transactions() throws {
        let db = try database()
        struct Refused: Error {}
        #expect(throws: Refused.self) {
            try db.transaction {
                try db.query("INSERT INTO habits VALUES (1, 'Run', 'daily', 1, 1, NULL, x'')")
                throw Refused()
            }
        }
        #expect(try db.query("SELECT count(*) FROM habits").first?.first == .integer(0))
        let id = try db.transaction { () throws -> Int64? in
            try db.query("INSERT INTO habits VALUES (7, 'Run', 'daily', 1, 1, NULL, x'')")
            return try db.query("SELECT max(id) FROM habits").first?.first?.integer
        }
        #expect(id == 7)
        #expect(try db.query("SELECT count(*) FROM habits").first?.first == .integer(1))
    }

    @Test("migrate runs only the steps after the file's version, and refuses a newer file, changing nothing")
    func migrations() throws {
        let db = try database()
        #expect(try db.userVersion == 2)
        try db.query("INSERT INTO habits VALUES (1, 'Run', 'daily', 1, 1, NULL, x'')")
        try db.migrate(Self.schema + ["ALTER TABLE habits ADD COLUMN streak INTEGER NOT NULL DEFAULT 3"])
        #expect(try db.userVersion == 3)
        #expect(
            try db.query("SELECT streak FROM habits").first?.first == .integer(3), "the row kept, the step run once")
        #expect(throws: SQLiteError.self) { try db.migrate(Self.schema) }
        #expect(try db.userVersion == 3)
        // A failing step rolls the whole migration back.
        #expect(throws: SQLiteError.self) {
            try db.migrate(Self.schema + ["ALTER TABLE habits ADD COLUMN streak INTEGER", "x", "nonsense"])
        }
        #expect(try db.userVersion == 3)
    }

    @Test("one shared connection used from many threads at once, each call whole")
    func sharedConnection() async throws {
        let shared = try SharedSQLiteDatabase(
            path: TestFixtures.temporaryDirectory("sqlite-shared") + "/new/app.sqlite"
        ) { db in
            try db.execute("PRAGMA journal_mode = WAL")
            try db.migrate(Self.schema)
        }
        await withTaskGroup(of: Void.self) { group in
            for worker in 0..<8 {
                group.addTask {
                    for n in 0..<25 {
                        _ = try? shared.transaction { db in
                            try db.query(
                                "INSERT INTO habits (name, kind, done, weight, icon) VALUES (?, 'daily', 0, 0, x'')",
                                [.text("w\(worker)-\(n)")])
                        }
                    }
                }
            }
        }
        #expect(try shared.execute("UPDATE habits SET done = 1 WHERE name LIKE 'w0-%'") == 25)
        #expect(try shared.execute("DELETE FROM habits WHERE name = ?", [.text("w1-0")]) == 1)
        struct Count: Decodable, Sendable, Equatable { var count: Int }
        #expect(try shared.query("SELECT count(*) AS count FROM habits", as: Count.self) == [Count(count: 199)])
    }
}

extension SQLiteRowTests.Habit: Sendable {}
extension SQLiteRowTests.Habit.Kind: Sendable {}
