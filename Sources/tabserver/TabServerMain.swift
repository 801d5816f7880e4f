// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerDemo
import TabServerProcess
import TabServerRedisSessions

#if canImport(Glibc)
    import Glibc
#endif

/// The demo executable: read the configuration, build the demo store on the library,
/// serve until SIGTERM (SIGHUP reloads the tab file); `tabserver backup DEST` asks the
/// running server for a copy of its SQLite store.
@main
struct TabServerMain {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "backup" {
            exit(BackupCommand.run(Array(arguments.dropFirst()), environment: ProcessEnvironment.current()))
        }
        AppMain.run(name: "tabserver") { configuration, log throws(StartupError) in
            try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), redis: .standard, log: log)
        }
    }
}
