import HTTPServer
import TabServer

#if canImport(Glibc)
    import Glibc
#endif

/// The executable: read the configuration, build the app, serve until SIGTERM.
@main
struct TabServerMain {
    static func main() {
        // Before any thread exists, so every engine thread inherits the mask and only
        // `sigwait` in `serve` sees SIGTERM, SIGINT and SIGHUP.
        Application.blockSignals()
        let log = LogSink.standardError
        var environment: [String: String] = [:]
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                environment[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        let configuration: AppConfiguration
        do {
            switch try AppConfiguration.parse(
                arguments: Array(CommandLine.arguments.dropFirst()), environment: environment)
            {
            case .help(let text):
                print(text)
                return
            case .run(let parsed):
                configuration = parsed
            }
        } catch {
            log.write("tabserver: \(error)")
            log.flush()
            exit(2)
        }
        do {
            let app = try buildApplication(configuration, log: log)
            let server = try app.start()
            log.write(
                "tabserver: listening on http://\(configuration.http.host):\(server.port)\(configuration.basePath)/ (\(configuration.http.threads) threads, sessions: \(configuration.sessions))"
            )
            log.flush()
            exit(app.serve(server))
        } catch {
            log.write("tabserver: cannot start: \(error)")
            log.flush()
            exit(1)
        }
    }
}
