// SPDX-License-Identifier: Apache-2.0
import NotesKit
import TabServer
import TabServerProcess

/// Notes on TabServer: its own tabs (tabs.json), pages and actions (`NotesKit`), notes in
/// SQLite (`NOTES_DATABASE`, default data/notes.sqlite), templates and icons laid over
/// TabServer's own, which the library finds itself.
@main
struct NotesApp {
    static func main() {
        var defaults = AppConfiguration()
        defaults.appName = "Notes"
        defaults.templateOverlays = ["Templates"]  // tabs/notes, tabs/search, tabs/settings
        defaults.publicOverlays = ["Public"]  // icons/notes.svg, search.svg, settings.svg
        AppMain.run(name: "notes", defaults: defaults) { configuration, log throws(StartupError) in
            let database = NoteStore.path(in: ProcessEnvironment.current())
            return try buildNotesApplication(configuration, databasePath: database, log: log)
        }
    }
}
