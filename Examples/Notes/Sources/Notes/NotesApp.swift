// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerProcess

/// Notes on TabServer: its own tabs (tabs.json), pages and actions (`NotesContent`),
/// templates and icons laid over TabServer's own, which the library finds itself.
@main
struct NotesApp {
    static func main() {
        var defaults = AppConfiguration()
        defaults.appName = "Notes"
        defaults.templateOverlays = ["Templates"]  // tabs/notes, tabs/search, tabs/settings
        defaults.publicOverlays = ["Public"]  // icons/notes.svg, search.svg, settings.svg
        AppMain.run(name: "notes", defaults: defaults) { configuration, log throws(StartupError) in
            let notebook = Notebook.sample
            var hooks = AppHooks()
            hooks.didSelect = { tab, _ in notebook.countVisit(to: tab.id) }  // once per committed tap
            return try buildApplication(
                configuration, content: NotesContent(notebook: notebook), hooks: hooks, log: log)
        }
    }
}
