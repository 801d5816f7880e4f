// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerProcess

@main
struct FirstTabApp {
    static func main() {
        var defaults = AppConfiguration()
        defaults.appName = "Groceries"
        defaults.templateOverlays = ["Templates"]
        defaults.publicOverlays = ["Public"]
        AppMain.run(name: "groceries", defaults: defaults) { configuration, log throws(StartupError) in
            try buildApplication(configuration, content: Groceries().content, log: log)
        }
    }
}
