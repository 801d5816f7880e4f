// SPDX-License-Identifier: Apache-2.0
import ProcessLifecycle
import TabServer
import TabServerDemo

#if canImport(Glibc)
    import Glibc
#endif

/// The demo executable: read the configuration, build the demo store on the library,
/// serve until SIGTERM (SIGHUP reloads the tab file).
@main
struct TabServerMain {
    static func main() {
        // Before any thread exists, so every engine thread inherits the mask and only
        // `ProcessSignals.serve` sees SIGTERM, SIGINT and SIGHUP.
        ProcessSignals.block()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "backup" {
            exit(BackupCommand.run(Array(arguments.dropFirst()), environment: ProcessEnvironment.current()))
        }
        var log = LogSink.standardError
        let configuration: AppConfiguration
        do {
            switch try AppConfiguration.parse(
                arguments: arguments, environment: ProcessEnvironment.current())
            {
            case .help(let text):
                print(text)
                return
            case .run(let parsed):
                configuration = parsed
            }
        } catch {
            log.write("tabserver: \(error)", level: .error)
            log.flush()
            exit(2)
        }
        if configuration.logFormat != .text { log = LogSink(descriptor: 2, format: configuration.logFormat) }
        do {
            let app = try buildApplication(configuration, content: DemoCatalog(), hooks: demoHooks(), log: log)
            let server = try AppServer(app)
            log.write(
                "tabserver: listening on http://\(configuration.http.host):\(server.port)\(configuration.basePath)/ (\(configuration.http.threads) threads, sessions: \(configuration.sessions))"
            )
            log.flush()
            exit(ProcessSignals.serve(server, onReload: { app.reloadTabs() }))
        } catch {
            log.write("tabserver: cannot start: \(error)", level: .error)
            log.flush()
            exit(1)
        }
    }
}
