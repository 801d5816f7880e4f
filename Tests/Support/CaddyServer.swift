// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTesting

/// A real Caddy (Debian's `caddy`) on a free loopback port with a generated Caddyfile,
/// for proxy tests: admin endpoint off, automatic HTTPS off, its storage, config and
/// log in a temporary directory, stopped by pid.
///
/// ```swift
/// let caddy = try CaddyServer { port in
///     "http://shop.test:\(port) {\n    bind 127.0.0.1\n    reverse_proxy 127.0.0.1:\(app.port)\n}"
/// }
/// // GET http://127.0.0.1:\(caddy.port)/ with Host: shop.test
/// ```
public final class CaddyServer {
    /// The port the site listens on (chosen here, passed to `sites`).
    public let port: Int
    /// Caddy's working directory: `Caddyfile`, `caddy.log`, storage.
    public let directory: String
    private let process: ChildProcess

    /// Starts Caddy with the site blocks `sites(port)` returns, after a global block that
    /// turns off the admin endpoint and automatic HTTPS. Site blocks should `bind 127.0.0.1`.
    /// Waits (at most 10 s) until the port accepts connections.
    public init(sites: (Int) -> String) throws {
        guard Self.isInstalled else { throw TestSupportError("caddy is not installed (scripts/setup.sh --test)") }
        directory = TestFixtures.temporaryDirectory("caddy")
        port = try freeLoopbackPort()
        let caddyfile = """
            {
                admin off
                auto_https off
                storage file_system \(directory)/storage
                log {
                    output file \(directory)/caddy.log
                    level WARN
                }
            }

            \(sites(port))
            """
        try caddyfile.write(toFile: directory + "/Caddyfile", atomically: true, encoding: .utf8)
        // Caddy keeps data and autosaved config under XDG folders: keep them here too.
        var environment = ProcessInfo.processInfo.environment
        environment["HOME"] = directory
        environment["XDG_DATA_HOME"] = directory + "/data"
        environment["XDG_CONFIG_HOME"] = directory + "/config"
        let output = ChildProcess.Output.file(directory + "/stderr.log")
        process = try ChildProcess(
            [Self.binary, "run", "--config", directory + "/Caddyfile", "--adapter", "caddyfile"],
            environment: environment, standardOutput: output, standardError: output)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline && process.isRunning {
            if RawHTTPConnection(port: port, timeoutSeconds: 1) != nil { return }
            usleep(20_000)
        }
        stop()
        throw TestSupportError("caddy did not start: \(log)")
    }

    deinit { stop() }

    /// What Caddy wrote (its output and log), for failure messages.
    public var log: String {
        ["stderr.log", "caddy.log"].compactMap {
            try? String(contentsOfFile: directory + "/" + $0, encoding: .utf8)
        }.joined(separator: "\n")
    }

    /// Where Debian installs Caddy.
    public static var binary: String {
        ["/usr/bin/caddy", "/usr/local/bin/caddy"].first { FileManager.default.isExecutableFile(atPath: $0) }
            ?? "/usr/bin/caddy"
    }

    /// Whether Caddy is installed.
    public static var isInstalled: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// Stops Caddy (SIGTERM, then SIGKILL after 5 s: it keeps no state worth a wait) and reaps it.
    public func stop() {
        process.stop(SIGTERM)
    }
}
