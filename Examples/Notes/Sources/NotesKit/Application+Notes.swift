// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerSQLite

extension Application {
    /// Makes this the Notes app: its notes in `store`, its tabs' pages and actions
    /// (`NotesContent`), and the `didSelect` hook counting taps for the Settings tab.
    /// `main` and the tests both call it, before `run()` or `build()`.
    ///
    /// ```swift
    /// let app = Application(configuration: configuration)
    /// app.addNotes(store: try NoteStore(path: "data/notes.sqlite"))
    /// try app.build()
    /// let client = try TestClient(app)
    /// ```
    public func addNotes(store: NoteStore, visits: TabVisits = TabVisits()) {
        var hooks = AppHooks()
        hooks.didSelect = { tab, _ in visits.count(tab.id) }  // once per committed tap
        self.hooks(hooks)
        content(NotesContent(store: store, visits: visits).tabContent())
    }

    /// `addNotes(store:)` with the notes in the SQLite file at `databasePath` (created with
    /// its folder if missing); a database that cannot be opened stops start-up naming it.
    public func addNotes(databasePath: String) throws(StartupError) {
        do {
            addNotes(store: try NoteStore(path: databasePath))
        } catch {
            throw StartupError(.app, "notes database \(databasePath): \(error)", underlying: error as? SQLiteError)
        }
    }
}
