// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerThreads

#if canImport(Glibc)
    import Glibc
#endif

extension Application {
    /// An app named `name` (its log lines start with it), configured from the process's
    /// flags and environment over `defaults` (`--help` prints every setting and exits; a
    /// bad one exits 2, naming it). The handlers for SIGTERM, SIGINT and SIGHUP are
    /// installed here, so a signal that comes while the app builds waits for `run()`.
    ///
    /// ```swift
    /// let app = Application(name: "groceries") { $0.appName = "Groceries" }
    /// ```
    public convenience init(
        name: String, arguments: [String] = Array(CommandLine.arguments.dropFirst()),
        environment: [String: String] = ProcessEnvironment.current(),
        defaults: (inout AppConfiguration) -> Void = { _ in }
    ) {
        ProcessSignals.install()
        var base = AppConfiguration()
        base.logName = name
        defaults(&base)
        let configuration: AppConfiguration
        do {
            switch try AppConfiguration.parse(arguments: arguments, environment: environment, base: base) {
            case .help(let text):
                let prefix = "Usage: tabserver"
                print(text.hasPrefix(prefix) ? "Usage: \(name)" + text.dropFirst(prefix.count) : text)
                exit(0)
            case .version(let text):
                print(name == "tabserver" ? text : "\(name) (\(text))")
                exit(0)
            case .run(let parsed):
                configuration = parsed
            }
        } catch {
            let log = LogSink(descriptor: 2, name: name)
            log.write("\(error)", level: .error)
            log.flush()
            exit(2)
        }
        self.init(configuration: configuration)
    }

    /// Builds the app, serves it until SIGTERM or SIGINT (then drains and returns; SIGHUP
    /// reloads the tab file and the TLS certificate), logging where it listens. Cancelling
    /// the task that runs it drains and returns as SIGTERM does. A start-up error is thrown,
    /// naming the file, line and reason.
    ///
    /// ```swift
    /// @main struct Groceries {
    ///     static func main() async throws {
    ///         let app = Application(name: "groceries")
    ///         app.tab("list") { list in list.page { _, _ in TabPage(title: "List", context: [:]) } }
    ///         try await app.run()
    ///     }
    /// }
    /// ```
    public func run() async throws(StartupError) {
        try build()
        let server = try AppServer(self)
        let configuration = configuration
        log.write(
            "listening on \(server.servesTLS ? "https" : "http")://\(configuration.http.host):\(server.port)\(configuration.basePath)/ (\(configuration.http.threads) threads, sessions: \(configuration.sessions))"
        )
        if let redirectPort = server.redirectPort {
            log.write("redirecting http://\(configuration.http.host):\(redirectPort)/ to HTTPS (308)")
        }
        log.flush()
        // The signals are waited for on a worker thread of their own (it blocks reading
        // their pipe); cancelling the task that runs this puts a stop on that pipe.
        await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
                WorkerThread.detach {
                    ProcessSignals.serve(
                        log: self.log, inFlight: { server.inFlightRequests },
                        onReload: {
                            self.reloadTabs()
                            Self.reloadCertificate(of: server, log: self.log)
                        },
                        stop: { server.shutdown() })
                    continuation.resume()
                }
            }
        } onCancel: {
            ProcessSignals.requestStop()
        }
    }

    /// SIGHUP's TLS part: the certificate and key read again, the outcome logged.
    private static func reloadCertificate(of server: AppServer, log: LogSink) {
        do {
            guard let notAfter = try server.reloadTLS() else { return }
            log.write("TLS certificate reloaded (valid until \(notAfter))")
        } catch {
            log.write("TLS certificate not reloaded, the current one stays: \(error)", level: .error)
        }
        log.flush()
    }
}
