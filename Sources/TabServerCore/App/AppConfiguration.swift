import HTTPTypes

#if canImport(Glibc)
    import Glibc
#endif

/// Everything the server can be told at start, from flags (`--port 9000`, `--port=9000`)
/// and environment variables (`TABSERVER_PORT=9000`; `PORT` too). Flags win.
///
/// ```swift
/// var configuration = AppConfiguration()
/// configuration.http.port = 0
/// let app = try buildApplication(configuration)
/// ```
public struct AppConfiguration: Sendable {
    /// Engine settings: address, threads, limits.
    public var http = HTTPServerConfiguration(threads: AppConfiguration.coreCount)
    /// Folder of static files served from memory.
    public var publicDirectory = "Public"
    /// Folder of Mustache templates, compiled at start.
    public var templatesDirectory = "Templates"
    /// Folder of UI languages, one JSON file each (en.json is required).
    public var localesDirectory = "Locales"
    /// The shared tab definition (tabs and appearance), reloaded on SIGHUP.
    public var tabsFile = "tabs.json"
    /// Where sessions live: `memory`, `sqlite:PATH` (the default) or `redis://HOST:PORT/DB`.
    public var sessions = "sqlite:data/sessions.sqlite"
    /// Key prefix of sessions in Redis.
    public var redisPrefix = "tabserver:session:"
    /// Most sessions the memory store keeps.
    public var memorySessionCapacity = 100_000
    /// Session lifetimes.
    public var sessionIdleTimeout: Int64 = 30 * 86_400
    public var sessionAbsoluteTimeout: Int64 = 180 * 86_400
    /// The session cookie's name.
    public var cookieName = "tabserver_session"
    /// Peers whose `Forwarded` / `X-Forwarded-*` headers are believed (addresses, CIDRs).
    public var trustedProxies = "127.0.0.0/8, ::1"
    /// The public origin ("https://shop.example.com"), when known: its scheme decides
    /// `Secure` cookies whatever the headers say.
    public var publicOrigin: String?
    /// The path the app is mounted at behind a proxy ("" or e.g. "/app").
    public var basePath = ""
    /// The app's name in titles and the manifest.
    public var appName = "TabServer Store"
    /// One line per request on standard output.
    public var accessLog = true
    /// `GET /metrics` (Prometheus text format, at the root) for direct peers on loopback
    /// or in `trustedProxies`; off by default (404).
    public var metrics = false
    /// Access log and server messages as text lines or JSON objects, one per line.
    public var logFormat = LogFormat.text

    /// The embedded defaults.
    public init() {}

    /// Engine threads by default: one per core. More threads only added latency in the
    /// benchmarks (bench/), since each runs its own event loop.
    static var coreCount: Int { max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }

    /// One setting: flag name, environment name, description (the `--help` text and the
    /// README's table come from the same list).
    public struct Setting: Sendable {
        public let flag: String
        public let environment: String
        public let defaultValue: String
        public let help: String
        let apply: @Sendable (inout AppConfiguration, String) throws -> Void
    }
}
