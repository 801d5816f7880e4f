// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSessions
import TabServerWeb

extension AppConfiguration {
    /// Every setting, in the order `--help` and the README list them. Values are applied
    /// in this order too, so `--memory-sessions`, `--sqlite-max-sessions`,
    /// `--redis-prefix` and `--redis-wait-replicas` (after `--sessions`)
    /// refine the store it chose, whatever order the flags came in.
    public static let settings: [Setting] = baseSettings + pushSettings

    /// The settings besides Web Push's.
    static let baseSettings: [Setting] = [
        Setting(
            flag: "host", environment: "TABSERVER_HOST", defaultValue: "127.0.0.1",
            help: "address to bind (0.0.0.0 for all)"
        ) { configuration, value throws(ConfigurationError) in
            guard !value.isEmpty else { throw ConfigurationError("the address is empty") }
            configuration.http.host = value
        },
        Setting(
            flag: "port", environment: "TABSERVER_PORT", also: ["PORT"], defaultValue: "8080",
            help: "port; 0 picks a free one (logged)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.port = try integer(value, in: 0...65535)
        },
        Setting(
            flag: "threads", environment: "TABSERVER_THREADS", defaultValue: "one per core",
            help: "engine threads (epoll loops)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.threads = try integer(value, in: 1...64)
        },
        Setting(
            flag: "connection-limit", environment: "TABSERVER_CONNECTION_LIMIT", defaultValue: "10000",
            help: "connections held at once; past it an immediate 503 with Retry-After, then close"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.connectionLimit = try integer(value, in: 1...1_000_000)
        },
        Setting(
            flag: "per-ip-limit", environment: "TABSERVER_PER_IP_LIMIT", defaultValue: "0 on loopback, else 64",
            help: "connections per client address (0: no limit; keep 0 behind a proxy)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.perAddressConnectionLimit = try integer(value, in: 0...1_000_000)
        },
        Setting(
            flag: "connection-timeout", environment: "TABSERVER_CONNECTION_TIMEOUT", defaultValue: "30",
            help: "seconds an idle connection stays open"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.connectionTimeout = try seconds(value, in: 1...86_400)
        },
        Setting(
            flag: "header-timeout", environment: "TABSERVER_HEADER_TIMEOUT", defaultValue: "10",
            help: "seconds from a request's first byte to the end of its head (slower → 408 and close)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.headerTimeout = try seconds(value, in: 1...3600)
        },
        Setting(
            flag: "body-timeout", environment: "TABSERVER_BODY_TIMEOUT", defaultValue: "20",
            help: "seconds a request body gets, plus 1 s per 500 bytes received (slower → 408 and close)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.bodyTimeout = try seconds(value, in: 1...3600)
        },
        Setting(
            flag: "send-timeout", environment: "TABSERVER_SEND_TIMEOUT", defaultValue: "30",
            help: "seconds to send a response, plus 1 s per 500 bytes (a client not reading is dropped)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.sendTimeout = try seconds(value, in: 1...3600)
        },
        Setting(
            flag: "memory-per-connection", environment: "TABSERVER_MEMORY_PER_CONNECTION", defaultValue: "32768",
            help: "bytes for the request head (more → 431/414)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.memoryPerConnection = try integer(value, in: 4096...16_777_216)
        },
        Setting(
            flag: "max-body", environment: "TABSERVER_MAX_BODY", defaultValue: "65536",
            help: "largest request body in bytes (more → 413, as it arrives)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.maxBodySize = try integer(value, in: 0...1_073_741_824)
        },
        Setting(
            flag: "shutdown-grace", environment: "TABSERVER_SHUTDOWN_GRACE", defaultValue: "8",
            help: "seconds in-flight requests get on SIGTERM"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.shutdownGracePeriod = try seconds(value, in: 0...60)
        },
        Setting(
            flag: "tls-certificate", environment: "TABSERVER_TLS_CERTIFICATE", defaultValue: "(none: plain HTTP)",
            help: "PEM certificate chain (leaf first) to serve HTTPS; with --tls-key; SIGHUP rereads both"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.tls = TLSSettings(
                certificatePath: try path(value), keyPath: configuration.http.tls?.keyPath ?? "")
        },
        Setting(
            flag: "tls-key", environment: "TABSERVER_TLS_KEY", defaultValue: "(none)",
            help: "PEM private key of --tls-certificate (unencrypted)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.http.tls = TLSSettings(
                certificatePath: configuration.http.tls?.certificatePath ?? "", keyPath: try path(value))
        },
        Setting(
            flag: "tls-min-version", environment: "TABSERVER_TLS_MIN_VERSION", defaultValue: "1.2",
            help: "oldest TLS version accepted: 1.2 or 1.3 (never older)"
        ) { configuration, value throws(ConfigurationError) in
            guard let version = TLSSettings.MinimumVersion(rawValue: value) else {
                throw ConfigurationError("'\(value)' is not 1.2 or 1.3")
            }
            guard configuration.http.tls != nil else {
                throw ConfigurationError("needs --tls-certificate and --tls-key")
            }
            configuration.http.tls?.minimumVersion = version
        },
        Setting(
            flag: "redirect-http-port", environment: "TABSERVER_REDIRECT_HTTP_PORT", defaultValue: "(none)",
            help: "with TLS, also listen for plain HTTP on this port and answer every request 308 to https://"
        ) { configuration, value throws(ConfigurationError) in
            let port = try integer(value, in: 0...65535)
            guard configuration.http.tls != nil else {
                throw ConfigurationError("needs --tls-certificate and --tls-key")
            }
            guard port == 0 || port != configuration.http.port else {
                throw ConfigurationError("\(port) is the HTTPS port (--port) itself")
            }
            configuration.http.tls?.redirectHTTPPort = port
        },
        Setting(
            flag: "hsts-max-age", environment: "TABSERVER_HSTS_MAX_AGE", defaultValue: "(off)",
            help: "with TLS, send Strict-Transport-Security: max-age=SECONDS on every HTTPS answer (e.g. 31536000)"
        ) { configuration, value throws(ConfigurationError) in
            let maxAge = try integer(value, in: 0...315_360_000)
            guard configuration.http.tls != nil else {
                throw ConfigurationError("needs --tls-certificate and --tls-key")
            }
            let includeSubDomains = configuration.http.tls?.strictTransportSecurity?.includeSubDomains ?? false
            configuration.http.tls?.strictTransportSecurity = StrictTransportSecurity(
                maxAge: maxAge, includeSubDomains: includeSubDomains)
        },
        Setting(
            flag: "hsts-include-subdomains", environment: "TABSERVER_HSTS_INCLUDE_SUBDOMAINS", defaultValue: "off",
            help: "add includeSubDomains to Strict-Transport-Security (every subdomain must serve HTTPS): on or off"
        ) { configuration, value throws(ConfigurationError) in
            let include = try boolean(value)
            guard include else { return }
            guard configuration.http.tls?.strictTransportSecurity != nil else {
                throw ConfigurationError("needs --hsts-max-age")
            }
            configuration.http.tls?.strictTransportSecurity?.includeSubDomains = true
        },
        Setting(
            flag: "public", environment: "TABSERVER_PUBLIC", defaultValue: LibraryFiles.path("Public"),
            help: "static files, served from memory"
        ) { configuration, value throws(ConfigurationError) in
            configuration.publicDirectory = try path(value)
        },
        Setting(
            flag: "templates", environment: "TABSERVER_TEMPLATES", defaultValue: LibraryFiles.path("Templates"),
            help: "Mustache templates, compiled at start"
        ) { configuration, value throws(ConfigurationError) in
            configuration.templatesDirectory = try path(value)
        },
        Setting(
            flag: "locales", environment: "TABSERVER_LOCALES", defaultValue: LibraryFiles.path("Locales"),
            help: "UI languages, one JSON file each"
        ) { configuration, value throws(ConfigurationError) in
            configuration.localesDirectory = try path(value)
        },
        Setting(
            flag: "tabs", environment: "TABSERVER_TABS", defaultValue: "tabs.json",
            help: "the tab definition (reloaded on SIGHUP)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.tabsFile = try path(value)
        },
        Setting(
            flag: "sessions", environment: "TABSERVER_SESSIONS", defaultValue: "sqlite:data/sessions.sqlite",
            help:
                "memory, sqlite:PATH, redis://HOST:PORT/DB, redis-sentinel://HOST:PORT,HOST:PORT/MASTER[/DB], redis-cluster://HOST:PORT,HOST:PORT, or SCHEME:… of a store the app registers"
        ) { configuration, value throws(ConfigurationError) in
            configuration.sessions = try SessionStoreConfiguration(value)
        },
        Setting(
            flag: "redis-prefix", environment: "TABSERVER_REDIS_PREFIX", defaultValue: "tabserver:session:",
            help: "key prefix in Redis"
        ) { configuration, value throws(ConfigurationError) in
            guard !value.isEmpty, !value.contains(where: { $0.isWhitespace }) else {
                throw ConfigurationError("'\(value)' must be non-empty and without white space")
            }
            if case .redis(let redis, _) = configuration.sessions {
                configuration.sessions = .redis(redis, keyPrefix: value)
            }
        },
        Setting(
            flag: "redis-wait-replicas", environment: "TABSERVER_REDIS_WAIT_REPLICAS", defaultValue: "0",
            help: "Redis replicas that must acknowledge each session write (WAIT, ≤ 250 ms); fewer → 503"
        ) { configuration, value throws(ConfigurationError) in
            let replicas = try integer(value, in: 0...64)
            if case .redis(var redis, let keyPrefix) = configuration.sessions {
                redis.waitReplicas = replicas
                configuration.sessions = .redis(redis, keyPrefix: keyPrefix)
            }
        },
        Setting(
            flag: "memory-sessions", environment: "TABSERVER_MEMORY_SESSIONS", defaultValue: "100000",
            help: "most sessions the memory store keeps (one-shot sessions go first)"
        ) { configuration, value throws(ConfigurationError) in
            let capacity = try integer(value, in: 1...100_000_000)
            if case .memory = configuration.sessions { configuration.sessions = .memory(capacity: capacity) }
        },
        Setting(
            flag: "sqlite-max-sessions", environment: "TABSERVER_SQLITE_MAX_SESSIONS", defaultValue: "3000000",
            help:
                "most sessions the SQLite store keeps, about 1 GB (7.9 GB if every one holds push subscriptions at their caps; one-shot sessions go first)"
        ) { configuration, value throws(ConfigurationError) in
            let maxSessions = try integer(value, in: 1...1_000_000_000)
            if case .sqlite(let path, _) = configuration.sessions {
                configuration.sessions = .sqlite(path: path, maxSessions: maxSessions)
            }
        },
        Setting(
            flag: "new-session-rate", environment: "TABSERVER_NEW_SESSION_RATE", defaultValue: "20",
            help: "new sessions a second one client address (an IPv6 /64) may store; 0: no budget"
        ) { configuration, value throws(ConfigurationError) in
            configuration.newSessionRate = try integer(value, in: 0...1_000_000)
        },
        Setting(
            flag: "new-session-burst", environment: "TABSERVER_NEW_SESSION_BURST", defaultValue: "2000",
            help: "new sessions one client may store at once, on top of the rate"
        ) { configuration, value throws(ConfigurationError) in
            configuration.newSessionBurst = try integer(value, in: 1...100_000_000)
        },
        Setting(
            flag: "session-idle", environment: "TABSERVER_SESSION_IDLE", defaultValue: "2592000 (30 days)",
            help: "seconds until an unused session expires"
        ) { configuration, value throws(ConfigurationError) in
            configuration.sessionIdleTimeout = try seconds(value, in: 60...315_360_000)
        },
        Setting(
            flag: "session-absolute", environment: "TABSERVER_SESSION_ABSOLUTE", defaultValue: "15552000 (180 days)",
            help: "seconds until a session expires, used or not"
        ) { configuration, value throws(ConfigurationError) in
            configuration.sessionAbsoluteTimeout = try seconds(value, in: 60...315_360_000)
        },
        Setting(
            flag: "csrf-secret", environment: "TABSERVER_CSRF_SECRET", defaultValue: "(random per process)",
            help: "signs form tokens of visitors without a session; the same on every instance (32+ characters)"
        ) { configuration, value throws(ConfigurationError) in
            guard value.utf8.count >= FormTokenSigner.minimumSecretLength else {
                throw ConfigurationError(
                    "the secret must be at least \(FormTokenSigner.minimumSecretLength) characters")
            }
            configuration.csrfSecret = value
        },
        Setting(
            flag: "cookie-name", environment: "TABSERVER_COOKIE_NAME", defaultValue: "tabserver_session",
            help: "session cookie name"
        ) { configuration, value throws(ConfigurationError) in
            guard Cookie.isSafeToken(value) else { throw ConfigurationError("'\(value)' is not a valid cookie name") }
            configuration.cookieName = value
        },
        Setting(
            flag: "trusted-proxies", environment: "TABSERVER_TRUSTED_PROXIES", defaultValue: "127.0.0.0/8, ::1",
            help: "peers whose forwarded headers are believed (addresses, CIDR ranges; empty: none)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.trustedProxies = try proxyTrust(value)
        },
        Setting(
            flag: "identity-header", environment: "TABSERVER_IDENTITY_HEADER", defaultValue: "(none)",
            help: "header naming the signed-in user, believed from --trusted-proxies only, e.g. X-Forwarded-User"
        ) { configuration, value throws(ConfigurationError) in
            guard !value.isEmpty else {
                configuration.identityHeader = nil
                return
            }
            guard Cookie.isSafeToken(value) else { throw ConfigurationError("'\(value)' is not a valid header name") }
            configuration.identityHeader = value
        },
        Setting(
            flag: "public-origin", environment: "TABSERVER_PUBLIC_ORIGIN", defaultValue: "(none)",
            help: "e.g. https://shop.example.com; its scheme decides Secure"
        ) { configuration, value throws(ConfigurationError) in
            configuration.publicOrigin = value.isEmpty ? nil : try PublicOrigin(value)
        },
        Setting(
            flag: "base-path", environment: "TABSERVER_BASE_PATH", defaultValue: "(empty)",
            help: "path prefix behind a proxy, e.g. /app"
        ) { configuration, value throws(ConfigurationError) in
            configuration.basePath = try basePath(value)
        },
        Setting(
            flag: "app-name", environment: "TABSERVER_APP_NAME", defaultValue: "TabServer Store",
            help: "name in titles"
        ) { configuration, value throws(ConfigurationError) in
            configuration.appName = value
        },
        Setting(
            flag: "app-description", environment: "TABSERVER_APP_DESCRIPTION", defaultValue: "(the app name)",
            help: "one sentence about the app, in the web app manifest"
        ) { configuration, value throws(ConfigurationError) in
            configuration.appDescription = value.isEmpty ? nil : value
        },
        Setting(
            flag: "service-worker", environment: "TABSERVER_SERVICE_WORKER", defaultValue: "on",
            help: "the offline service worker at /sw.js (the shell and each tab's last-seen page): on or off"
        ) { configuration, value throws(ConfigurationError) in
            configuration.serviceWorker = try boolean(value)
        },
        Setting(
            flag: "access-log", environment: "TABSERVER_ACCESS_LOG", defaultValue: "on",
            help: "one line per request on stdout (on or off)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.accessLog = try boolean(value)
        },
        Setting(
            flag: "metrics", environment: "TABSERVER_METRICS", defaultValue: "off",
            help: "GET /metrics (Prometheus) at the root, for direct peers on loopback or --trusted-proxies: on or off"
        ) { configuration, value throws(ConfigurationError) in
            configuration.metrics = try boolean(value)
        },
        Setting(
            flag: "log-format", environment: "TABSERVER_LOG_FORMAT", defaultValue: "text",
            help: "access log and server messages: text, or json (one object per line)"
        ) { configuration, value throws(ConfigurationError) in
            guard let format = LogFormat(rawValue: value.lowercased()) else {
                throw ConfigurationError("'\(value)' is not text or json")
            }
            configuration.logFormat = format
        },
        Setting(
            flag: "dev", environment: "TABSERVER_DEV", defaultValue: "off",
            help:
                "development mode (never in production): files watched, open pages follow every save, errors shown in the browser; on or off (--dev alone: on)"
        ) { configuration, value throws(ConfigurationError) in
            configuration.developmentMode = try boolean(value)
        },
    ]
}
