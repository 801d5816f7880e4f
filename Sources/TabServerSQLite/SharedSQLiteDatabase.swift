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
/// let report = try await db.interruptible { scope in
///     try await context.blocking { try scope.use { try $0.query("SELECT … FROM habits, log …") } }
/// }
/// ```
public final class SharedSQLiteDatabase: Sendable {
    private let database: Mutex<SQLiteDatabase>
    private let interrupter: SQLiteInterrupter
    /// The interruptible scope whose statements hold the connection now, if one does.
    private let owner = Mutex<ObjectIdentifier?>(nil)
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

    /// Stops the statement running on the connection now, from any thread, whoever runs
    /// it: it throws `SQLiteError` with `SQLITE_INTERRUPT` (code 9) and its transaction
    /// rolls back. Nothing happens when no statement runs.
    public func interrupt() {
        interrupter.interrupt()
    }

    /// The calls of one interruptible operation (`interruptible(_:)`): the connection's
    /// statements it runs are the only ones its cancellation interrupts.
    public final class InterruptScope: Sendable {
        private let database: SharedSQLiteDatabase
        /// Whether the operation was cancelled (written under the database's `owner` lock).
        let cancelled = Atomic<Bool>(false)

        init(_ database: SharedSQLiteDatabase) { self.database = database }

        /// `SharedSQLiteDatabase.use(_:)`, its statements interrupted if the operation is
        /// cancelled while they run.
        public func use<Result: Sendable, Failure: Error>(_ body: (SQLiteDatabase) throws(Failure) -> Result)
            throws(Failure) -> Result
        {
            try database.use(as: self, body)
        }
    }

    /// Runs `operation`, which awaits this database's calls made through its scope on the
    /// blocking pool (inside `context.blocking { … }`); when the task is cancelled (a
    /// visitor who reset their connection), the scope's statement running then is
    /// interrupted, and no other caller's: long SQLite work stops instead of holding its
    /// pool thread to the end.
    public func interruptible<Result: Sendable>(_ operation: (InterruptScope) async throws -> Result)
        async throws -> Result
    {
        let scope = InterruptScope(self)
        let id = ObjectIdentifier(scope)
        return try await withTaskCancellationHandler {
            try await operation(scope)
        } onCancel: {
            self.owner.withLock { owner in
                scope.cancelled.store(true, ordering: .relaxed)
                if owner == id { self.interrupter.stopping.store(true, ordering: .relaxed) }
            }
        }
    }

    /// `use`, the connection noted as `scope`'s while `body` runs (cleared before the
    /// connection is free for anyone else). Its statements stop at once when the scope
    /// was cancelled before it got the connection, or is cancelled while they run.
    private func use<Result: Sendable, Failure: Error>(
        as scope: InterruptScope, _ body: (SQLiteDatabase) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        try database.withLock { (database) throws(Failure) -> Result in
            owner.withLock { owner in
                owner = ObjectIdentifier(scope)
                interrupter.stopping.store(scope.cancelled.load(ordering: .relaxed), ordering: .relaxed)
            }
            defer {
                owner.withLock { owner in
                    owner = nil
                    interrupter.stopping.store(false, ordering: .relaxed)
                }
            }
            return try body(database)
        }
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
