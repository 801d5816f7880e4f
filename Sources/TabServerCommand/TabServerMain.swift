// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerRedisSessions

#if canImport(Glibc)
    import Glibc
#endif

/// The demo executable: the demo store built on the library, served until SIGTERM (SIGHUP
/// reloads the tab file); `tabserver backup DEST` asks the running server for a copy of
/// its SQLite store.
@main
struct TabServerMain {
    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "backup" {
            exit(BackupCommand.run(Array(arguments.dropFirst()), environment: ProcessEnvironment.current()))
        }
        let app = Application(name: "tabserver")
        app.content(DemoCatalog())
        app.hooks(demoHooks())
        app.redis(.standard)
        do {
            try await app.run()
        } catch {
            app.log.write("cannot start: \(error)", level: .error)
            app.log.flush()
            exit(1)
        }
    }
}
