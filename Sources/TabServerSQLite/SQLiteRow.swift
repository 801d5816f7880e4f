// SPDX-License-Identifier: Apache-2.0
/// One row of a query's result, with its columns' names.
///
/// ```swift
/// for row in try db.rows("SELECT id, title FROM notes") {
///     print(row["id"]?.integer ?? 0, row["title"]?.text ?? "")
/// }
/// let note = try row.decode(Note.self)   // properties matched to columns by name
/// ```
public struct SQLiteRow: Sendable, Hashable {
    /// The columns' names, as the statement names them (`AS` renames one).
    public let columns: [String]
    /// The values, in the columns' order.
    public let values: [SQLiteValue]

    /// A row of these columns and values (the same count).
    public init(columns: [String], values: [SQLiteValue]) {
        precondition(columns.count == values.count, "a value for each column")
        self.columns = columns
        self.values = values
    }

    /// The value of the column named `column`, nil when the row has no such column.
    public subscript(_ column: String) -> SQLiteValue? {
        columns.firstIndex(of: column).map { values[$0] }
    }

    /// The row as `type`, each stored property read from the column of its name: integers
    /// as any integer type or `Bool` (0 or 1), reals as `Double` or `Float`, text as
    /// `String` (or any type decoded from one value, like a `String` enum), blobs as
    /// `[UInt8]`, NULL as nil. Throws `SQLiteError` naming the column that does not fit.
    public func decode<Row: Decodable>(_ type: Row.Type) throws(SQLiteError) -> Row {
        try decode(type, in: "")
    }

    func decode<Row: Decodable>(_ type: Row.Type, in sql: String) throws(SQLiteError) -> Row {
        do {
            return try Row(from: SQLiteRowDecoder(row: self))
        } catch let error as SQLiteRowDecoder.Mismatch {
            throw SQLiteError(
                code: 20,  // SQLITE_MISMATCH
                message: error.description,
                operation: "decode \(Row.self) from \(sql.isEmpty ? "a row" : String(sql.prefix(60)))")
        } catch {
            throw SQLiteError(code: 20, message: "\(error)", operation: "decode \(Row.self)")
        }
    }
}
