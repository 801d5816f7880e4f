// SPDX-License-Identifier: Apache-2.0
/// A statement prepared once by `SQLiteDatabase.prepare`, for `SQLiteDatabase.run` on
/// the same connection.
///
/// ```swift
/// let touch = try db.prepare("UPDATE sessions SET last_seen = ? WHERE id = ?")
/// try db.run(touch) { bind in
///     try bind.integer(now, at: 1)
///     try bind.blob(idBytes, at: 2)
/// }
/// ```
public struct SQLiteStatement: Sendable, Hashable {
    let index: Int
    /// The connection that prepared it.
    let database: ObjectIdentifier
}
