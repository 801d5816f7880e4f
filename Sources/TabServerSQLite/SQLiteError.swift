// SPDX-License-Identifier: Apache-2.0
/// A failed SQLite call: SQLite's result code and message, with what was being done.
public struct SQLiteError: Error, Sendable, CustomStringConvertible, Equatable {
    /// SQLite's primary result code (`SQLITE_BUSY` is 5, `SQLITE_CORRUPT` 11, …).
    public let code: Int32
    /// SQLite's message for it.
    public let message: String
    /// What was being done ("open data/sessions.sqlite", "prepare SELECT …").
    public let operation: String

    public init(code: Int32, message: String, operation: String) {
        self.code = code
        self.message = message
        self.operation = operation
    }

    public var description: String { "sqlite: \(operation): \(message) (code \(code))" }
}
