// SPDX-License-Identifier: Apache-2.0
import TabServerSQLite

/// The notes, kept durably in their own SQLite file (table `notes`), one notebook per
/// owner: a signed-in user's name, or "" for the notebook anonymous visitors share.
///
/// ```swift
/// let store = try NoteStore(path: "data/notes.sqlite")
/// let id = try store.add(Note.Draft(title: "Buy milk", body: "Two cartons"), owner: "", limit: 500)
/// let notes = try store.notes(owner: "", order: .newest)
/// ```
public final class NoteStore: Sendable {
    /// The database path, by default `data/notes.sqlite` (`NOTES_DATABASE` names another).
    public static let defaultPath = "data/notes.sqlite"

    /// The database path `environment` names (`NOTES_DATABASE`), or the default.
    public static func path(in environment: [String: String]) -> String {
        guard let path = environment["NOTES_DATABASE"], !path.isEmpty else { return defaultPath }
        return path
    }

    /// The one connection, shared by the engine's threads and tasks one call at a time.
    private let database: SharedSQLiteDatabase
    /// The file path.
    public var path: String { database.path }

    /// The schema, one step a version (`SQLiteDatabase.migrate`): never edit a step, add
    /// one. The first also puts the sample notes in the shared notebook, in the same
    /// transaction, so two processes opening a new file seed it once.
    static let schema = [
        """
        CREATE TABLE notes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            owner TEXT NOT NULL,
            title TEXT NOT NULL,
            body TEXT NOT NULL
        );
        CREATE INDEX notes_by_owner ON notes (owner, id);
        INSERT INTO notes (owner, title, body) VALUES
        """
            + Note.samples.map { "('', \(literal($0.title)), \(literal($0.body)))" }.joined(separator: ",\n") + ";"
    ]

    /// `text` as an SQL string literal.
    private static func literal(_ text: String) -> String {
        "'" + text.replacing("'", with: "''") + "'"
    }

    /// Opens (creating the file, its folder and the table if needed) the notes at
    /// `path`. A new database gets the sample notes in the shared notebook.
    public init(path: String) throws {
        database = try SharedSQLiteDatabase(path: path) { connection in
            try connection.execute("PRAGMA journal_mode = WAL")
            // Every saved note is on disk when the visitor is told it is saved.
            try connection.execute("PRAGMA synchronous = FULL")
            try connection.migrate(Self.schema)
        }
    }

    /// The owner's notes in `order`.
    public func notes(owner: String, order: NoteOrder = .newest) throws(SQLiteError) -> [Note] {
        let sql = "SELECT id, title, body FROM notes WHERE owner = ? ORDER BY \(order.orderBy)"
        return try database.query(sql, [.text(owner)], as: Note.self)
    }

    /// The owner's note with this id, or nil (another owner's note is nil too).
    public func note(id: Int64, owner: String) throws(SQLiteError) -> Note? {
        try database.query(
            "SELECT id, title, body FROM notes WHERE id = ? AND owner = ?", [.integer(id), .text(owner)], as: Note.self
        ).first
    }

    /// The owner's notes whose title or body contains `query` (ignoring ASCII case), newest first.
    public func search(_ query: String, owner: String) throws(SQLiteError) -> [Note] {
        var pattern = "%"
        for character in query {
            if character == "%" || character == "_" || character == "\\" { pattern.append("\\") }
            pattern.append(character)
        }
        pattern.append("%")
        return try database.query(
            """
            SELECT id, title, body FROM notes
            WHERE owner = ? AND (title LIKE ?2 ESCAPE '\\' OR body LIKE ?2 ESCAPE '\\')
            ORDER BY id DESC
            """, [.text(owner), .text(pattern)], as: Note.self)
    }

    /// How many notes the owner has.
    public func count(owner: String) throws(SQLiteError) -> Int {
        let rows = try database.query("SELECT count(*) FROM notes WHERE owner = ?", [.text(owner)])
        return Int(rows.first?.first?.integer ?? 0)
    }

    /// Stores a new note in the owner's notebook and returns its id; nil, storing nothing,
    /// when the notebook holds `limit` notes already. One statement: two visitors adding at
    /// once cannot both slip under the limit.
    public func add(_ draft: Note.Draft, owner: String, limit: Int) throws(SQLiteError) -> Int64? {
        let rows = try database.query(
            """
            INSERT INTO notes (owner, title, body)
            SELECT ?1, ?2, ?3 WHERE (SELECT count(*) FROM notes WHERE owner = ?1) < ?4
            RETURNING id
            """,
            [.text(owner), .text(draft.title), .text(draft.body), .integer(Int64(limit))])
        return rows.first?.first?.integer
    }

    /// Replaces the title and body of the owner's note; false when they have no such note.
    public func update(id: Int64, with draft: Note.Draft, owner: String) throws(SQLiteError) -> Bool {
        try database.execute(
            "UPDATE notes SET title = ?, body = ? WHERE id = ? AND owner = ?",
            [.text(draft.title), .text(draft.body), .integer(id), .text(owner)]) == 1
    }

    /// Deletes the owner's note; false when they have no such note.
    public func delete(id: Int64, owner: String) throws(SQLiteError) -> Bool {
        try database.execute("DELETE FROM notes WHERE id = ? AND owner = ?", [.integer(id), .text(owner)]) == 1
    }
}
