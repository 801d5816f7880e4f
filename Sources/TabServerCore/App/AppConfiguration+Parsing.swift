import HTTPTypes
import Web

extension AppConfiguration {
    /// Every setting, in the order `--help` lists them.
    public static let settings: [Setting] = [
        Setting(
            flag: "host", environment: "TABSERVER_HOST", defaultValue: "127.0.0.1",
            help: "address to bind (0.0.0.0 for all)"
        ) {
            $0.http.host = $1
        },
        Setting(
            flag: "port", environment: "TABSERVER_PORT", defaultValue: "8080",
            help: "port to bind; 0 picks a free one (also PORT)"
        ) {
            $0.http.port = try integer($1, "port", 0...65535)
        },
        Setting(
            flag: "threads", environment: "TABSERVER_THREADS", defaultValue: "cores",
            help: "engine threads (epoll loops); default: one per core"
        ) {
            $0.http.threads = try integer($1, "threads", 1...64)
        },
        Setting(
            flag: "connection-limit", environment: "TABSERVER_CONNECTION_LIMIT", defaultValue: "1000",
            help: "connections served at once"
        ) {
            $0.http.connectionLimit = try integer($1, "connection-limit", 1...1_000_000)
        },
        Setting(
            flag: "per-ip-limit", environment: "TABSERVER_PER_IP_LIMIT", defaultValue: "0 on loopback, else 64",
            help: "connections per client address (0 = none; keep 0 behind a proxy)"
        ) {
            $0.http.perAddressConnectionLimit = try integer($1, "per-ip-limit", 0...1_000_000)
        },
        Setting(
            flag: "connection-timeout", environment: "TABSERVER_CONNECTION_TIMEOUT", defaultValue: "30",
            help: "seconds an idle connection stays open"
        ) {
            $0.http.connectionTimeout = try integer($1, "connection-timeout", 1...86_400)
        },
        Setting(
            flag: "memory-per-connection", environment: "TABSERVER_MEMORY_PER_CONNECTION", defaultValue: "32768",
            help: "bytes per connection for the request head (larger headers → 431)"
        ) {
            $0.http.memoryPerConnection = try integer($1, "memory-per-connection", 4096...16_777_216)
        },
        Setting(
            flag: "max-body", environment: "TABSERVER_MAX_BODY", defaultValue: "65536",
            help: "largest request body in bytes (larger → 413)"
        ) {
            $0.http.maxBodySize = try integer($1, "max-body", 0...1_073_741_824)
        },
        Setting(
            flag: "shutdown-grace", environment: "TABSERVER_SHUTDOWN_GRACE", defaultValue: "8",
            help: "seconds in-flight requests get on SIGTERM"
        ) {
            $0.http.shutdownGracePeriod = Double(try integer($1, "shutdown-grace", 0...60))
        },
        Setting(flag: "public", environment: "TABSERVER_PUBLIC", defaultValue: "Public", help: "static files folder") {
            $0.publicDirectory = $1
        },
        Setting(
            flag: "templates", environment: "TABSERVER_TEMPLATES", defaultValue: "Templates",
            help: "Mustache templates folder"
        ) {
            $0.templatesDirectory = $1
        },
        Setting(flag: "locales", environment: "TABSERVER_LOCALES", defaultValue: "Locales", help: "UI languages folder")
        {
            $0.localesDirectory = $1
        },
        Setting(
            flag: "tabs", environment: "TABSERVER_TABS", defaultValue: "tabs.json",
            help: "tab definition file (reloaded on SIGHUP)"
        ) {
            $0.tabsFile = $1
        },
        Setting(
            flag: "sessions", environment: "TABSERVER_SESSIONS", defaultValue: "sqlite:data/sessions.sqlite",
            help: "session store: memory, sqlite:PATH or redis://HOST:PORT/DB"
        ) {
            guard $1 == "memory" || ($1.hasPrefix("sqlite:") && $1.count > 7) || $1.hasPrefix("redis://") else {
                throw ConfigurationError(
                    "--sessions: unknown store '\($1)' (use memory, sqlite:PATH or redis://HOST:PORT/DB)")
            }
            $0.sessions = $1
        },
        Setting(
            flag: "redis-prefix", environment: "TABSERVER_REDIS_PREFIX", defaultValue: "tabserver:session:",
            help: "key prefix of sessions in Redis"
        ) {
            $0.redisPrefix = $1
        },
        Setting(
            flag: "memory-sessions", environment: "TABSERVER_MEMORY_SESSIONS", defaultValue: "100000",
            help: "most sessions the memory store keeps (least recently used go first)"
        ) {
            $0.memorySessionCapacity = try integer($1, "memory-sessions", 1...100_000_000)
        },
        Setting(
            flag: "session-idle", environment: "TABSERVER_SESSION_IDLE", defaultValue: "2592000",
            help: "seconds an unused session lives (30 days)"
        ) {
            $0.sessionIdleTimeout = Int64(try integer($1, "session-idle", 60...315_360_000))
        },
        Setting(
            flag: "session-absolute", environment: "TABSERVER_SESSION_ABSOLUTE", defaultValue: "15552000",
            help: "seconds a session lives at most (180 days)"
        ) {
            $0.sessionAbsoluteTimeout = Int64(try integer($1, "session-absolute", 60...315_360_000))
        },
        Setting(
            flag: "cookie-name", environment: "TABSERVER_COOKIE_NAME", defaultValue: "tabserver_session",
            help: "session cookie name"
        ) {
            guard Cookie.isSafeToken($1) else {
                throw ConfigurationError("--cookie-name: '\($1)' is not a valid cookie name")
            }
            $0.cookieName = $1
        },
        Setting(
            flag: "base-path", environment: "TABSERVER_BASE_PATH", defaultValue: "",
            help: "path prefix the app is served under, e.g. /app"
        ) {
            $0.basePath = try basePath($1)
        },
        Setting(
            flag: "trusted-proxies", environment: "TABSERVER_TRUSTED_PROXIES", defaultValue: "127.0.0.0/8, ::1",
            help: "peers whose Forwarded/X-Forwarded-* headers are believed (addresses, CIDRs; empty = none)"
        ) {
            do {
                _ = try ProxyTrust($1)
            } catch {
                throw ConfigurationError("--trusted-proxies: \((error as? HTTPError)?.message ?? "\(error)")")
            }
            $0.trustedProxies = $1
        },
        Setting(
            flag: "public-origin", environment: "TABSERVER_PUBLIC_ORIGIN", defaultValue: "",
            help: "public scheme and host, e.g. https://shop.example.com (optional)"
        ) {
            let isOrigin =
                ($1.hasPrefix("https://") || $1.hasPrefix("http://"))
                && !$1.split(separator: "/", omittingEmptySubsequences: true).dropFirst(2).contains { _ in true }
            guard $1.isEmpty || isOrigin else {
                throw ConfigurationError("--public-origin: '\($1)' must look like https://host[:port] without a path")
            }
            $0.publicOrigin = $1.isEmpty ? nil : $1
        },
        Setting(
            flag: "app-name", environment: "TABSERVER_APP_NAME", defaultValue: "TabServer Store",
            help: "name shown in titles"
        ) {
            $0.appName = $1
        },
        Setting(
            flag: "access-log", environment: "TABSERVER_ACCESS_LOG", defaultValue: "on",
            help: "one line per request on stdout: on or off"
        ) {
            $0.accessLog = try boolean($1, "access-log")
        },
        Setting(
            flag: "metrics", environment: "TABSERVER_METRICS", defaultValue: "off",
            help: "GET /metrics (Prometheus) at the root, for direct peers on loopback or --trusted-proxies: on or off"
        ) {
            $0.metrics = try boolean($1, "metrics")
        },
        Setting(
            flag: "log-format", environment: "TABSERVER_LOG_FORMAT", defaultValue: "text",
            help: "access log and server messages: text, or json (one object per line)"
        ) {
            guard let format = LogFormat(rawValue: $1.lowercased()) else {
                throw ConfigurationError("--log-format: '\($1)' is not text or json")
            }
            $0.logFormat = format
        },
    ]

    /// What `parse` found: a configuration to run, or a request for help.
    public enum ParseResult: Sendable {
        case run(AppConfiguration)
        case help(String)
    }

    /// Reads the environment, then the flags (flags win). Unknown flags and bad values
    /// are errors naming the flag.
    public static func parse(arguments: [String], environment: [String: String]) throws(ConfigurationError)
        -> ParseResult
    {
        var configuration = AppConfiguration()
        var perIPSet = false
        if let port = environment["PORT"] { try apply(settingNamed("port"), port, to: &configuration) }
        for setting in settings {
            if let value = environment[setting.environment] {
                try apply(setting, value, to: &configuration)
                if setting.flag == "per-ip-limit" { perIPSet = true }
            }
        }
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--help" || argument == "-h" { return .help(helpText) }
            guard argument.hasPrefix("--") else {
                throw ConfigurationError("unexpected argument '\(argument)' (see --help)")
            }
            var name = String(argument.dropFirst(2))
            var value: String
            if let equals = name.firstIndex(of: "=") {
                value = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            } else {
                guard index < arguments.count else { throw ConfigurationError("--\(name) needs a value") }
                value = arguments[index]
                index += 1
            }
            guard let setting = settings.first(where: { $0.flag == name }) else {
                throw ConfigurationError("unknown option --\(name) (see --help)")
            }
            try apply(setting, value, to: &configuration)
            if name == "per-ip-limit" { perIPSet = true }
        }
        if !perIPSet {
            configuration.http.perAddressConnectionLimit = isLoopback(configuration.http.host) ? 0 : 64
        }
        return .run(configuration)
    }

    /// The `--help` text.
    public static var helpText: String {
        var lines = ["Usage: tabserver [--option value]...", "", "Options (environment variable, default):"]
        for setting in settings {
            lines.append("  --\(setting.flag)  \(setting.help)")
            lines.append(
                "      \(setting.environment), default: \(setting.defaultValue.isEmpty ? "(empty)" : setting.defaultValue)"
            )
        }
        lines.append("Signals: SIGTERM/SIGINT drain and stop; SIGHUP reloads the tab definition file.")
        return lines.joined(separator: "\n")
    }

    /// Settings throw only `ConfigurationError`; the closure type cannot say so without
    /// spelling out every closure's signature, so the error is narrowed here.
    private static func apply(_ setting: Setting, _ value: String, to configuration: inout AppConfiguration)
        throws(ConfigurationError)
    {
        do {
            try setting.apply(&configuration, value)
        } catch let error as ConfigurationError {
            throw error
        } catch {
            throw ConfigurationError("--\(setting.flag): \(error)")
        }
    }

    private static func settingNamed(_ flag: String) -> Setting {
        settings.first { $0.flag == flag }!
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    private static func integer(_ text: String, _ flag: String, _ range: ClosedRange<Int>) throws(ConfigurationError)
        -> Int
    {
        guard let value = Int(text), range.contains(value) else {
            throw ConfigurationError(
                "--\(flag): '\(text)' is not a whole number in \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    private static func boolean(_ text: String, _ flag: String) throws(ConfigurationError) -> Bool {
        switch text.lowercased() {
        case "on", "true", "1", "yes": return true
        case "off", "false", "0", "no": return false
        default: throw ConfigurationError("--\(flag): '\(text)' is not on or off")
        }
    }

    private static func basePath(_ text: String) throws(ConfigurationError) -> String {
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
            throw ConfigurationError("--base-path: '\(text)' must look like /app (letters, digits, - _ .)")
        }
        return path
    }
}
