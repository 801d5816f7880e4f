// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSessions
import TabServerWeb

extension AppConfiguration {
    /// What `parse` found: a configuration to run, or a request for help or the version.
    public enum ParseResult: Sendable {
        /// Run with this configuration.
        case run(AppConfiguration)
        /// `--help` (or `-h`): print this text and exit.
        case help(String)
        /// `--version`: print this line (`tabserver 0.4.0`) and exit.
        case version(String)
    }

    /// Reads the environment, then the flags (flags win), and turns every value into its
    /// type. Unknown flags and bad values are errors naming the flag (and the variable,
    /// when the value came from the environment).
    /// `base` holds an app's own defaults (its tab file, overlays, name): what the flags
    /// and variables do not set stays as it is there.
    public static func parse(
        arguments: [String], environment: [String: String], base: AppConfiguration = AppConfiguration()
    ) throws(ConfigurationError) -> ParseResult {
        var given: [String: (value: String, source: String)] = [:]
        for setting in settings {
            for name in [setting.environment] + setting.alsoEnvironment where given[setting.flag] == nil {
                if let value = environment[name] { given[setting.flag] = (value, name) }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help(helpText) }
            if argument == "--version" { return .version("tabserver \(TabServerVersion.current)") }
            guard argument.hasPrefix("--") else {
                throw ConfigurationError("unexpected argument '\(argument)' (see --help)")
            }
            var name = String(argument.dropFirst(2))
            let value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else if Self.switches.contains(name),
                index == arguments.count || (try? boolean(arguments[index])) == nil
            {
                value = "on"  // `--dev` alone turns it on
            } else {
                guard index < arguments.count else { throw ConfigurationError("--\(name) needs a value", flag: name) }
                value = arguments[index]
                index += 1
            }
            guard settings.contains(where: { $0.flag == name }) else {
                throw ConfigurationError("unknown option --\(name) (see --help)", flag: name)
            }
            given[name] = (value, "--\(name)")
        }
        var configuration = base
        for setting in settings {
            guard let given = given[setting.flag] else { continue }
            do {
                try setting.apply(&configuration, given.value)
            } catch {
                let origin = given.source.hasPrefix("--") ? "" : " (from \(given.source))"
                throw ConfigurationError("--\(setting.flag): \(error.message)\(origin)", flag: setting.flag)
            }
        }
        if let tls = configuration.http.tls, tls.certificatePath.isEmpty || tls.keyPath.isEmpty {
            let missing = tls.keyPath.isEmpty ? "tls-key" : "tls-certificate"
            throw ConfigurationError(
                "--\(missing) is needed too: HTTPS takes both --tls-certificate and --tls-key", flag: missing)
        }
        if given["per-ip-limit"] == nil {
            configuration.http.perAddressConnectionLimit = isLoopback(configuration.http.host) ? 0 : 64
        }
        return .run(configuration)
    }

    /// Settings that may be given without a value, meaning on.
    static let switches: Set<String> = ["dev"]

    /// The `--help` text, from `settings`.
    public static var helpText: String {
        var lines = [
            "Usage: tabserver [--option value]...",
            "       tabserver --version                           print the version and exit",
            "       tabserver backup DEST [--option value]...   copy the running server's SQLite store to DEST",
            "         (asks the server at --host/--port over loopback; see docs/operations.md)",
            "", "Options (environment variable, default):",
        ]
        for setting in settings {
            let variables = ([setting.environment] + setting.alsoEnvironment).joined(separator: " or ")
            lines.append("  --\(setting.flag)  \(setting.help)")
            lines.append("      \(variables), default: \(setting.defaultValue)")
        }
        lines.append(
            "Signals: SIGTERM/SIGINT drain and stop; SIGHUP reloads the tab definition file (and the TLS certificate).")
        return lines.joined(separator: "\n")
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    static func integer(_ text: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError("'\(text)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    static func seconds(_ text: String, in range: ClosedRange<Int>) throws(ConfigurationError) -> Duration {
        .seconds(try integer(text, in: range))
    }

    static func boolean(_ text: String) throws(ConfigurationError) -> Bool {
        switch text.lowercased() {
        case "on", "true", "1", "yes": return true
        case "off", "false", "0", "no": return false
        default: throw ConfigurationError("'\(text)' is not on or off")
        }
    }

    static func proxyTrust(_ text: String) throws(ConfigurationError) -> ProxyTrust {
        do {
            return try ProxyTrust(text)
        } catch {
            throw ConfigurationError(error.message)
        }
    }

    static func path(_ text: String) throws(ConfigurationError) -> String {
        guard !text.isEmpty else { throw ConfigurationError("the path is empty") }
        return text
    }

    static func basePath(_ text: String) throws(ConfigurationError) -> String {
        if text.isEmpty || text == "/" { return "" }
        var path = text
        while path.hasSuffix("/") { path.removeLast() }
        guard path.hasPrefix("/"),
            path.split(separator: "/").allSatisfy({ segment in
                segment != ".." && segment != "."
                    && segment.utf8.allSatisfy { byte in
                        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
                    }
            })
        else {
            throw ConfigurationError("'\(text)' must look like /app (letters, digits, - _ .)")
        }
        return path
    }
}
