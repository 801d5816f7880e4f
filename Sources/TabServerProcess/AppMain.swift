// SPDX-License-Identifier: Apache-2.0
import TabServer

#if canImport(Glibc)
    import Glibc
#endif

/// An app's whole `main`: signals blocked before any thread starts, the configuration
/// read from flags and environment over the app's own defaults (`--help` prints them;
/// a bad one exits 2 naming it), the app built and served until SIGTERM (exit 0; SIGHUP
/// reloads the tab file and the TLS certificate), and any start-up error reported with
/// exit status 1.
///
/// ```swift
/// @main struct NotesApp {
///     static func main() {
///         var defaults = AppConfiguration()
///         defaults.tabsFile = "tabs.json"
///         AppMain.run(name: "notes", defaults: defaults) { configuration in
///             try buildApplication(configuration, content: NotesContent())
///         }
///     }
/// }
/// ```
public enum AppMain {
    /// Runs the app and exits with its status; `name` starts its log lines.
    public static func run(
        name: String, defaults: AppConfiguration = AppConfiguration(),
        build: (AppConfiguration, LogSink) throws(StartupError) -> Application
    ) -> Never {
        // Before any thread exists, so every engine thread inherits the mask and only
        // `ProcessSignals.serve` sees SIGTERM, SIGINT and SIGHUP.
        ProcessSignals.block()
        var log = LogSink.standardError
        let configuration: AppConfiguration
        do {
            switch try AppConfiguration.parse(
                arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(),
                base: defaults)
            {
            case .help(let text):
                let prefix = "Usage: tabserver"
                print(text.hasPrefix(prefix) ? "Usage: \(name)" + text.dropFirst(prefix.count) : text)
                exit(0)
            case .run(let parsed):
                configuration = parsed
            }
        } catch {
            log.write("\(name): \(error)", level: .error)
            log.flush()
            exit(2)
        }
        if configuration.logFormat != .text { log = LogSink(descriptor: 2, format: configuration.logFormat) }
        do {
            let app = try build(configuration, log)
            let server = try AppServer(app)
            log.write(
                "\(name): listening on \(server.servesTLS ? "https" : "http")://\(configuration.http.host):\(server.port)\(configuration.basePath)/ (\(configuration.http.threads) threads, sessions: \(configuration.sessions))"
            )
            if let redirectPort = server.redirectPort {
                log.write(
                    "\(name): redirecting http://\(configuration.http.host):\(redirectPort)/ to HTTPS (308)")
            }
            log.flush()
            exit(
                ProcessSignals.serve(
                    server,
                    onReload: {
                        app.reloadTabs()
                        reloadCertificate(of: server, name: name, log: log)
                    }))
        } catch {
            log.write("\(name): cannot start: \(error)", level: .error)
            log.flush()
            exit(1)
        }
    }

    /// SIGHUP's TLS part: the certificate and key read again, the outcome logged.
    private static func reloadCertificate(of server: AppServer, name: String, log: LogSink) {
        do {
            guard let notAfter = try server.reloadTLS() else { return }
            log.write("\(name): TLS certificate reloaded (valid until \(notAfter))")
        } catch {
            log.write("\(name): TLS certificate not reloaded, the current one stays: \(error)", level: .error)
        }
        log.flush()
    }
}
