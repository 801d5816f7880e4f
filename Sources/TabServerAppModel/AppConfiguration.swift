// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerWeb

#if canImport(Glibc)
    import Glibc
#endif

/// Everything the server can be told at start, from flags (`--port 9000`, `--port=9000`)
/// and environment variables (`TABSERVER_PORT=9000`; `PORT` too). Flags win.
///
/// ```swift
/// var configuration = AppConfiguration()
/// configuration.http.port = 0
/// let app = try buildApplication(configuration, content: Notes())
/// ```
public struct AppConfiguration: Sendable {
    /// Engine settings: address, threads, limits.
    public var http = HTTPServerConfiguration(threads: AppConfiguration.coreCount)
    /// Folder of static files served from memory (TabServer's own, found by
    /// `LibraryFiles`, unless told otherwise).
    public var publicDirectory = LibraryFiles.path("Public")
    /// Folder of Mustache templates, compiled at start.
    public var templatesDirectory = LibraryFiles.path("Templates")
    /// An app's own folders of static files, laid over `publicDirectory` in order: a file
    /// here replaces the one at the same path there (icons, a stylesheet of its own).
    public var publicOverlays: [String] = []
    /// An app's own folders of templates, laid over `templatesDirectory` in order: its
    /// `tabs/*.mustache`, or its own `layout` replacing TabServer's.
    public var templateOverlays: [String] = []
    /// How often an idle live-update stream (`GET /events`) gets a heartbeat comment, so
    /// proxies and browsers keep it open.
    public var liveHeartbeat: Duration = .seconds(15)
    /// Folder of UI languages, one JSON file each (en.json is required).
    public var localesDirectory = LibraryFiles.path("Locales")
    /// The shared tab definition (tabs and appearance), reloaded on SIGHUP.
    public var tabsFile = "tabs.json"
    /// Where sessions live (SQLite in `data/sessions.sqlite` unless told otherwise).
    public var sessions = SessionStoreConfiguration.standard
    /// New sessions one client (an IPv4 address, an IPv6 /64; the address a trusted proxy
    /// reports) may store a second, on top of `newSessionBurst` at once; 0 sets no budget.
    /// Past it the client is still served, without a stored session (see docs/security.md).
    public var newSessionRate = 20
    /// New sessions one client may store at once before `newSessionRate` applies.
    public var newSessionBurst = 2_000
    /// A session unused this long expires (30 days).
    public var sessionIdleTimeout: Duration = .seconds(30 * 86_400)
    /// A session expires this long after it was created, used or not (180 days).
    public var sessionAbsoluteTimeout: Duration = .seconds(180 * 86_400)
    /// The secret that signs the form tokens of visitors with no stored session (nil: a
    /// random one per process). Instances sharing sessions must share it, so a form one
    /// of them showed is accepted by another.
    public var csrfSecret: String?
    /// Bounds on decoding request bodies (form fields, multipart parts, JSON depth),
    /// within the engine's `http.maxBodySize`.
    public var bodyLimits = BodyLimits()
    /// The session cookie's name.
    public var cookieName = "tabserver_session"
    /// Peers whose `Forwarded` / `X-Forwarded-*` headers are believed (default: loopback).
    public var trustedProxies = ProxyTrust.loopback
    /// The request header in which an authenticating proxy in `trustedProxies` names the
    /// signed-in user (e.g. `X-Forwarded-User`); nil: no identities. A user's arrangement,
    /// language and cleared badges then follow them to every browser.
    public var identityHeader: String?
    /// The public origin, when known: its scheme decides `Secure` cookies whatever the
    /// headers say.
    public var publicOrigin: PublicOrigin?
    /// The path the app is mounted at behind a proxy ("" or e.g. "/app").
    public var basePath = ""
    /// The app's name in titles and the manifest.
    public var appName = "TabServer Store"
    /// The name every line of the app's log starts with ("groceries: listening on …").
    public var logName = "tabserver"
    /// What the app is, one sentence, in the web app manifest (what an install dialog or
    /// a store listing shows); nil: the app's name.
    public var appDescription: String?
    /// The service worker (`/sw.js`, scoped to the base path): keeps the shell and each
    /// tab's last-seen page for offline use. Off: pages register none and a worker an
    /// earlier visit installed removes itself.
    public var serviceWorker = true
    /// One line per request on standard output.
    public var accessLog = true
    /// `GET /metrics` (Prometheus text format, at the root) for direct peers on loopback
    /// or in `trustedProxies`; off by default (404).
    public var metrics = false
    /// Access log and server messages as text lines or JSON objects, one per line.
    public var logFormat = LogFormat.text
    /// Web Push for the installed app (off unless `push.vapidKeyPath` is set).
    public var push = PushConfiguration()
    /// Development mode: the templates, static files, locales and tab file (with the app's
    /// overlays) are watched, and a saved change is used for the next request and shown on
    /// every open page (a reload in place, a stylesheet or an icon swapped); a file that no
    /// longer loads shows its error in the browser while the server keeps serving. Pages
    /// are never kept from before a change, and no service worker is registered. Off by
    /// default; never on in production.
    public var developmentMode = false

    /// The embedded defaults.
    public init() {}

    /// Engine threads by default: one per core. More threads only added latency in the
    /// benchmarks (bench/), since each runs its own event loop.
    static var coreCount: Int { max(1, min(64, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) }
}
