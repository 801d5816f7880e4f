// SPDX-License-Identifier: Apache-2.0
import CSQLite

/// Binds the parameters of a statement that `SQLiteDatabase.run` (or `query`) is about to
/// run; valid only inside its closure (it cannot be copied out of it). Values are copied by
/// SQLite.
public struct SQLiteBindings: ~Copyable {
    private let statement: OpaquePointer
    private let connection: OpaquePointer
    private let sql: String

    init(statement: OpaquePointer, connection: OpaquePointer, sql: String) {
        self.statement = statement
        self.connection = connection
        self.sql = sql
    }

    /// Binds parameter `index` (from 1) to an integer.
    public func integer(_ value: Int64, at index: Int32) throws(SQLiteError) {
        try check(sqlite3_bind_int64(statement, index, value), index)
    }

    /// Binds parameter `index` (from 1) to a blob of these bytes.
    public func blob(_ bytes: UnsafeRawBufferPointer, at index: Int32) throws(SQLiteError) {
        try check(bindBlob(bytes, at: index), index)
    }

    /// Binds parameter `index` (from 1) to a blob of these bytes.
    public func blob(_ bytes: [UInt8], at index: Int32) throws(SQLiteError) {
        // (Array's `withUnsafeBytes` only rethrows untyped errors: the status comes out.)
        try check(bytes.withUnsafeBytes { bindBlob($0, at: index) }, index)
    }

    /// Binds parameter `index` (from 1) to any value (`SQLiteDatabase.query`'s parameters).
    public func value(_ value: SQLiteValue, at index: Int32) throws(SQLiteError) {
        switch value {
        case .null: try check(sqlite3_bind_null(statement, index), index)
        case .integer(let number): try integer(number, at: index)
        case .real(let number): try check(sqlite3_bind_double(statement, index, number), index)
        case .text(let text):
            try check(sqlite3_bind_text(statement, index, text, -1, tabserver_sqlite_transient()), index)
        case .blob(let bytes): try blob(bytes, at: index)
        }
    }

    private func bindBlob(_ bytes: UnsafeRawBufferPointer, at index: Int32) -> Int32 {
        // A zero-length blob needs a non-null pointer, or SQLite binds NULL.
        let base = bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1)
        return sqlite3_bind_blob(statement, index, base, Int32(bytes.count), tabserver_sqlite_transient())
    }

    private func check(_ status: Int32, _ index: Int32) throws(SQLiteError) {
        guard status == SQLITE_OK else {
            throw SQLiteError(
                code: status, message: String(cString: sqlite3_errmsg(connection)),
                operation: "bind \(index) of \(sql.prefix(60))")
        }
    }
}
