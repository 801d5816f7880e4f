// SPDX-License-Identifier: Apache-2.0
import NotesKit
import TabServer

/// Notes on TabServer: its own tabs (tabs.json), pages and actions (`NotesKit`), notes in
/// SQLite (`NOTES_DATABASE`, default data/notes.sqlite), templates and icons laid over
/// TabServer's own, which the library finds itself.
@main
struct NotesApp {
    static func main() async throws {
        let app = Application(name: "notes") { defaults in
            defaults.appName = "Notes"
            defaults.templateOverlays = ["Templates"]  // tabs/notes, tabs/search, tabs/settings
            defaults.publicOverlays = ["Public"]  // icons/notes.svg, search.svg, settings.svg
        }
        try app.addNotes(databasePath: NoteStore.path(in: ProcessEnvironment.current()))
        try await app.run()
    }
}
