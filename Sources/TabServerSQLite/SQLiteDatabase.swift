// SPDX-License-Identifier: Apache-2.0
import CSQLite
import CSQLiteVFS

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection. Not thread-safe by itself: its owner serializes calls (the
/// session store keeps it behind a `Mutex`). Statements are prepared once and cached.
///
/// ```swift
/// let db = try SQLiteDatabase(path: "data/sessions.sqlite")
/// try db.execute("PRAGMA journal_mode = WAL")
/// let rows = try db.query("SELECT revision FROM sessions WHERE id = ?", [.blob(id)])
/// ```
public final class SQLiteDatabase {
    /// The connection (used by `SQLiteBackup` in this module; never handed out).
    let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]
    /// Statements of `statements` found lately, by their text's `String` value (`prepared`).
    private var recent = [RecentStatement?](repeating: nil, count: recentSlots)
    /// Statements handed out by `prepare`, by `SQLiteStatement.index` (also in `statements`).
    private var handedOut: [(statement: OpaquePointer, sql: String)] = []
    /// The file path.
    public let path: String

    /// Opens (creating if needed) the database at `path`; waits up to `busyTimeout`
    /// milliseconds for a lock held by another connection.
    ///
    /// `coalescingWrites`: the write-ahead log's consecutive writes go out as one
    /// `write(2)` per transaction instead of two per page (a VFS over the default one, in
    /// the `CSQLiteVFS` target); a transaction is still wholly in the file when its COMMIT returns.
    ///
    /// `vfs`: the name of a registered VFS to open the file through instead (one made
    /// by `registerCoalescingVFS(named:over:)`, for instance); it wins over `coalescingWrites`.
    ///
    /// `creatingDirectories`: the file's missing folders are made first (`mkdir -p`).
    public init(
        path: String, busyTimeout: Int32 = 2000, coalescingWrites: Bool = false, vfs: String? = nil,
        creatingDirectories: Bool = false
    ) throws(SQLiteError) {
        if creatingDirectories { Self.createDirectories(of: path) }
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        var defaultName: UnsafePointer<CChar>? = nil
        if coalescingWrites && vfs == nil {
            guard Self.coalescingVFSRegistered else {
                throw SQLiteError(code: SQLITE_ERROR, message: "no default VFS", operation: "register VFS")
            }
            defaultName = tabserver_sqlite_coalescing_vfs_name()
        }
        let status =
            if let vfs { sqlite3_open_v2(path, &pointer, flags, vfs) } else {
                sqlite3_open_v2(path, &pointer, flags, defaultName)
            }
        guard status == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            if let pointer { sqlite3_close_v2(pointer) }
            throw SQLiteError(code: status, message: message, operation: "open \(path)")
        }
        handle = pointer
        self.path = path
        sqlite3_busy_timeout(handle, busyTimeout)
        sqlite3_extended_result_codes(handle, 0)
    }

    /// Registers the WAL write-merging VFS once more as `name`, over the VFS registered as
    /// `root` rather than the default one (a test puts a power-loss simulation below it).
    /// Registering a name again changes nothing.
    public static func registerCoalescingVFS(named name: String, over root: String) throws(SQLiteError) {
        let status = tabserver_sqlite_register_coalescing_vfs_over(name, root)
        guard status == SQLITE_OK else {
            throw SQLiteError(code: status, message: "cannot register \(name) over \(root)", operation: "register VFS")
        }
    }

    /// Registered once per process, on first use.
    private static let coalescingVFSRegistered = tabserver_sqlite_register_coalescing_vfs() == SQLITE_OK

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs statements that return no rows (schema, pragmas, transactions).
    public func execute(_ sql: String) throws(SQLiteError) {
        var error: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &error)
        if status != SQLITE_OK {
            let message = error.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(error)
            throw SQLiteError(code: status, message: message, operation: "execute \(sql.prefix(60))")
        }
    }

    /// Runs one statement with parameters and returns every row.
    @discardableResult
    public func query(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try select(sql, parameters, naming: false).rows
    }

    /// Runs one statement with parameters and returns every row with its columns' names
    /// (`row["title"]`, `row.decode(Note.self)`).
    public func rows(_ sql: String, _ parameters: [SQLiteValue] = []) throws(SQLiteError) -> [SQLiteRow] {
        let result = try select(sql, parameters, naming: true)
        return result.rows.map { SQLiteRow(columns: result.columns, values: $0) }
    }

    /// Runs one statement with parameters and decodes every row as `type`, its properties
    /// matched to the columns by name (`SELECT id, title FROM notes` into
    /// `struct Note: Decodable { var id: Int64; var title: String }`). A column that does
    /// not fit its property (text for an `Int`, NULL for a non-optional) throws, naming both.
    public func query<Row: Decodable>(_ sql: String, _ parameters: [SQLiteValue] = [], as type: Row.Type)
        throws(SQLiteError) -> [Row]
    {
        var decoded: [Row] = []
        for row in try rows(sql, parameters) {
            decoded.append(try row.decode(type, in: sql))
        }
        return decoded
    }

    /// The rows of `sql` and, when `naming`, its columns' names.
    private func select(_ sql: String, _ parameters: [SQLiteValue], naming: Bool) throws(SQLiteError) -> (
        columns: [String], rows: [[SQLiteValue]]
    ) {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        let bindings = SQLiteBindings(statement: statement, connection: handle, sql: sql)
        for (index, value) in parameters.enumerated() {
            try bindings.value(value, at: Int32(index + 1))
        }
        let count = sqlite3_column_count(statement)
        let columns =
            naming ? (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) } : []
        var rows: [[SQLiteValue]] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw failure(status, "step \(sql.prefix(60))") }
            rows.append((0..<count).map { column(statement, $0) })
        }
        return (columns, rows)
    }

    /// Prepares `sql` once for `run` (a statement that returns no rows, run many times).
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        handedOut.append((try prepared(sql), sql))
        return SQLiteStatement(index: handedOut.count - 1, database: ObjectIdentifier(self))
    }

    /// Runs a statement from `prepare` with its parameters bound in place by `bind` (no
    /// arrays of values, no lookup by text: the session store's writer runs one per row it
    /// writes). Returns the rows changed.
    @discardableResult
    public func run(
        _ statement: SQLiteStatement, _ bind: (borrowing SQLiteBindings) throws(SQLiteError) -> Void
    ) throws(SQLiteError) -> Int {
        precondition(statement.database == ObjectIdentifier(self), "a statement prepared by another connection")
        let (prepared, sql) = handedOut[statement.index]
        defer {
            sqlite3_reset(prepared)
            sqlite3_clear_bindings(prepared)
        }
        try bind(SQLiteBindings(statement: prepared, connection: handle, sql: sql))
        let status = sqlite3_step(prepared)
        guard status == SQLITE_DONE else {
            if status == SQLITE_ROW {
                throw SQLiteError(code: status, message: "returns rows: use query", operation: "run \(sql.prefix(60))")
            }
            throw failure(status, "step \(sql.prefix(60))")
        }
        return Int(sqlite3_changes(handle))
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in one transaction (`BEGIN IMMEDIATE`, so it takes the write lock at
    /// once and waits up to the busy timeout for another connection's): committed when it
    /// returns, rolled back when it throws (its error is rethrown).
    ///
    /// ```swift
    /// try db.transaction {
    ///     try db.query("UPDATE habits SET done = done + 1 WHERE id = ?", [.integer(id)])
    ///     try db.query("INSERT INTO log (habit) VALUES (?)", [.integer(id)])
    /// }
    /// ```
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        try execute("BEGIN IMMEDIATE")
        let result: Result
        do {
            result = try body()
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
        try execute("COMMIT")
        return result
    }

    /// Brings the schema up to date: runs the steps after the database's `user_version`
    /// in order, in one transaction, and sets `user_version` to `steps.count`. Append a
    /// step for each change and never edit a released one; a new file runs them all.
    /// Throws, changing nothing, when the file's version is newer than `steps` know.
    ///
    /// ```swift
    /// try db.migrate([
    ///     "CREATE TABLE habits (id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
    ///     "ALTER TABLE habits ADD COLUMN done INTEGER NOT NULL DEFAULT 0",
    /// ])
    /// ```
    public func migrate(_ steps: [String]) throws(SQLiteError) {
        do {
            try transaction {
                let version = try userVersion
                guard version <= steps.count else {
                    throw SQLiteError(
                        code: SQLITE_ERROR,
                        message: "the file's schema is version \(version), newer than the \(steps.count) steps known",
                        operation: "migrate \(path)")
                }
                for step in steps[version...] { try execute(step) }
                try execute("PRAGMA user_version = \(steps.count)")
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            preconditionFailure("only SQLite's errors are thrown here: \(error)")
        }
    }

    /// `PRAGMA user_version`, the schema version this app keeps.
    public var userVersion: Int {
        get throws(SQLiteError) { Int(try query("PRAGMA user_version").first?.first?.integer ?? 0) }
    }

    private func prepared(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        // A statement's text is most often a literal, the same `String` value each time:
        // the value's own two words (a literal's address and length, or a short text's
        // bytes) pick a slot, found without hashing the text (a pass over all its bytes
        // for each look-up, several a durable post). The slot keeps the text too, and `==`
        // on identical values answers at once, so a value that only shares a slot is
        // compared, never mistaken for another.
        let slot = Self.slot(of: sql)
        if let recent = recent[slot], recent.sql == sql { return recent.statement }
        let statement = try preparedByText(sql)
        recent[slot] = RecentStatement(sql: sql, statement: statement)
        return statement
    }

    /// A statement found lately, in its slot of `recent` (see `prepared`).
    private struct RecentStatement {
        let sql: String
        let statement: OpaquePointer
    }

    /// Direct-mapped slots of `recent` (a power of two), picked by the top bits of a mix of
    /// the value's words.
    private static let recentSlots = 64
    private static let slotShift = UInt64.bitWidth - recentSlots.trailingZeroBitCount

    private static func slot(of sql: String) -> Int {
        withUnsafeBytes(of: sql) { words in
            guard words.count >= 16 else { return 0 }
            let mixed =
                words.loadUnaligned(as: UInt64.self)
                ^ (words.loadUnaligned(fromByteOffset: 8, as: UInt64.self) &* 0x9E37_79B9_7F4A_7C15)
            return Int(truncatingIfNeeded: (mixed &* 0x9E37_79B9_7F4A_7C15) &>> slotShift)
        }
    }

    private func preparedByText(_ sql: String) throws(SQLiteError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status, "prepare \(sql.prefix(60))") }
        statements[sql] = statement
        return statement
    }

    private func column(_ statement: OpaquePointer, _ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_INTEGER:
            return .integer(sqlite3_column_int64(statement, index))
        case SQLITE_FLOAT:
            return .real(sqlite3_column_double(statement, index))
        case SQLITE_TEXT:
            return .text(String(cString: sqlite3_column_text(statement, index)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, index))
            guard count > 0, let base = sqlite3_column_blob(statement, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default:
            return .null
        }
    }

    /// `mkdir -p` of the file's folder: a missing folder is made, an existing one kept
    /// (opening the file then names any real problem).
    private static func createDirectories(of path: String) {
        var folder = ""
        for (index, part) in path.split(separator: "/", omittingEmptySubsequences: false).dropLast().enumerated() {
            folder += (index == 0 ? "" : "/") + part
            if !folder.isEmpty { _ = mkdir(folder, 0o755) }
        }
    }

    private func failure(_ status: Int32, _ operation: String) -> SQLiteError {
        SQLiteError(code: status, message: String(cString: sqlite3_errmsg(handle)), operation: operation)
    }
}
