// SPDX-License-Identifier: Apache-2.0
import TabServer

/// The Notes app on a configuration: its notes in `store`, its tabs' pages and actions
/// (`NotesContent`), and the `didSelect` hook counting taps for the Settings tab. `main`
/// and the tests both call it.
///
/// ```swift
/// let app = try buildNotesApplication(configuration, store: try NoteStore(path: "data/notes.sqlite"))
/// let client = TestClient(app.responder)
/// ```
public func buildNotesApplication(
    _ configuration: AppConfiguration, store: NoteStore, visits: TabVisits = TabVisits(),
    log: LogSink = .standardError
) throws(StartupError) -> Application {
    var hooks = AppHooks()
    hooks.didSelect = { tab, _ in visits.count(tab.id) }  // once per committed tap
    return try buildApplication(
        configuration, content: NotesContent(store: store, visits: visits).tabContent(), hooks: hooks, log: log)
}

/// The Notes app with its notes in the SQLite file at `databasePath` (created with its
/// folder if missing); a database that cannot be opened stops start-up naming it.
public func buildNotesApplication(
    _ configuration: AppConfiguration, databasePath: String, log: LogSink = .standardError
) throws(StartupError) -> Application {
    let store: NoteStore
    do {
        store = try NoteStore(path: databasePath)
    } catch {
        throw StartupError("notes database \(databasePath): \(error)")
    }
    return try buildNotesApplication(configuration, store: store, log: log)
}
