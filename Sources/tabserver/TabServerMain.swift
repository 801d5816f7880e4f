// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerDemo
import TabServerProcess
import TabServerRedisSessions

/// The demo executable: read the configuration, build the demo store on the library,
/// serve until SIGTERM (SIGHUP reloads the tab file).
@main
struct TabServerMain {
    static func main() {
        AppMain.run(name: "tabserver") { configuration, log throws(StartupError) in
            try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), redis: .standard, log: log)
        }
    }
}
