import TabServer
// SPDX-License-Identifier: Apache-2.0
import TabServerProcess

#if canImport(Glibc)
    import Glibc
#endif

/// A three-tab app on the TabServer library: its own tabs (tabs.json), pages
/// (`NotesContent`), templates and icons (laid over TabServer's), and a hook.
@main
struct NotesApp {
    static func main() throws {
        ProcessSignals.block()  // before any thread starts: SIGTERM drains, SIGHUP reloads
        let environment = ProcessEnvironment.current()
        guard
            case .run(var configuration) = try AppConfiguration.parse(
                arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
        else { return print(AppConfiguration.helpText) }
        let tabServer = environment["TABSERVER_ROOT"] ?? "../.."  // its layout, pages, CSS
        configuration.appName = "Notes"
        configuration.tabsFile = "tabs.json"
        configuration.templatesDirectory = tabServer + "/Templates"
        configuration.publicDirectory = tabServer + "/Public"
        configuration.localesDirectory = tabServer + "/Locales"
        configuration.templateOverlays = ["Templates"]  // tabs/notes, tabs/search, tabs/settings
        configuration.publicOverlays = ["Public"]  // icons/notes.svg, search.svg, settings.svg

        let notebook = Notebook.sample
        var hooks = AppHooks()
        hooks.didSelect = { tab, _ in notebook.countVisit(to: tab.id) }  // once per committed tap

        let app = try buildApplication(configuration, content: NotesContent(notebook: notebook), hooks: hooks)
        let server = try AppServer(app)
        app.log.write("notes: listening on http://\(configuration.http.host):\(server.port)/")
        exit(ProcessSignals.serve(server, onReload: { app.reloadTabs() }))
    }
}
