// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// One SQLite connection that any thread may use, one call at a time (a lock around an
/// `SQLiteDatabase`): an app's own tables, shared by its handlers. Its calls block while
/// SQLite works, so a handler makes them on the blocking pool:
///
/// ```swift
/// let db = try SharedSQLiteDatabase(path: "data/habits.sqlite") { db in
///     try db.execute("PRAGMA journal_mode = WAL")
///     try db.migrate(["CREATE TABLE habits (id INTEGER PRIMARY KEY, name TEXT NOT NULL)"])
/// }
/// // in a handler:
/// let habits = try await context.blocking {
///     try db.query("SELECT id, name FROM habits ORDER BY id", as: Habit.self)
/// }
/// // a long one, stopped when the visitor leaves:
/// let report = try await db.interruptingWhenCancelled {
///     try await context.blocking { try db.query("SELECT … FROM habits, log …") }
/// }
/// ```
public final class SharedSQLiteDatabase: Sendable {
    private let database: Mutex<SQLiteDatabase>
    private let interrupter: SQLiteInterrupter
    /// The file path.
    public let path: String

    /// Opens (creating the file and its folders if needed) the database at `path`, then
    /// runs `setUp` on it (pragmas, `migrate`) before anyone else can use it. Throws
    /// `SQLiteError` when the file cannot be opened, and what `setUp` throws.
    public init(path: String, busyTimeout: Int32 = 2000, setUp: (SQLiteDatabase) throws -> Void = { _ in }) throws {
        let connection = try SQLiteDatabase(path: path, busyTimeout: busyTimeout, creatingDirectories: true)
        try setUp(connection)
        interrupter = SQLiteInterrupter(connection)
        database = Mutex(connection)
        self.path = path
    }

    /// Stops the statement running on the connection now, from any thread: it throws
    /// `SQLiteError` with `SQLITE_INTERRUPT` (code 9) and its transaction rolls back.
    /// Nothing happens when no statement runs.
    public func interrupt() {
        interrupter.interrupt()
    }

    /// Runs `operation` (which awaits a call of this database on the blocking pool, such
    /// as `context.blocking { … }`) and interrupts the statement running when the task is
    /// cancelled (a visitor who reset their connection): long SQLite work stops instead of
    /// holding its pool thread to the end.
    public func interruptingWhenCancelled<Result: Sendable>(
        _ operation: () async throws -> Result
    ) async throws -> Result {
        try await withTaskCancellationHandler(operation: operation) { [interrupter] in interrupter.interrupt() }
    }

    /// Runs `body` with the connection, no other call running on it meanwhile.
    public func use<Result: Sendable, Failure: Error>(_ body: (SQLiteDatabase) throws(Failure) -> Result)
        throws(Failure) -> Result
    {
        try database.withLock { (database) throws(Failure) -> Result in try body(database) }
    }

    /// Runs one statement that returns no rows (INSERT, UPDATE, DELETE) with its
    /// parameters, under the lock; returns the rows it changed.
    ///
    /// ```swift
    /// let changed = try db.execute("UPDATE habits SET done = done + 1 WHERE id = ?", [.integer(id)])
    /// ```
    @discardableResult
    public func execute(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        try use { (database) throws(SQLiteError) in
            try database.query(sql, parameters)
            return database.changes
        }
    }

    /// `SQLiteDatabase.query(_:_:)` under the lock: every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try use { (database) throws(SQLiteError) in try database.query(sql, parameters) }
    }

    /// `SQLiteDatabase.query(_:_:as:)` under the lock: every row decoded as `type`.
    public func query<Row: Decodable & Sendable>(_ sql: String, _ parameters: [SQLiteValue] = [], as type: Row.Type)
        throws(SQLiteError) -> [Row]
    {
        try use { (database) throws(SQLiteError) in try database.query(sql, parameters, as: type) }
    }

    /// `SQLiteDatabase.transaction(_:)` under the lock: `body`'s statements in one
    /// transaction, committed when it returns, rolled back when it throws.
    public func transaction<Result: Sendable>(_ body: (SQLiteDatabase) throws -> Result) throws -> Result {
        try use { (database) throws in try database.transaction { try body(database) } }
    }
}
