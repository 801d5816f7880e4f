// SPDX-License-Identifier: Apache-2.0
import TabServerAdmin
import TabServerAppModel
import TabServerHTTP
import TabServerInstall
import TabServerLive
import TabServerLocalization
import TabServerMetrics
import TabServerMustache
import TabServerPush
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

/// Builds an app from its setup: reads the files, compiles templates, loads the tab
/// definition, opens the session store and wires the routes (`Application.build`).
enum AppBuilder {
    static func build(
        configuration: AppConfiguration, setup: Application.Setup, router: Router<RequestContext>, log: LogSink
    )
        throws(StartupError) -> Application.Built
    {
        let files: StaticFiles
        do {
            files = try StaticFiles(directories: [configuration.publicDirectory] + configuration.publicOverlays)
        } catch {
            throw StartupError(.publicFiles, error.description, underlying: error)
        }
        for required in [
            "css/app.css", "js/app.js", "js/live.js", "js/install.js", ServiceWorkerScript.sourcePath, "icons/app.svg",
            "icons/apple-touch-icon.png",
        ]
        where files.file(required) == nil {
            throw StartupError(.publicFiles, "\(configuration.publicDirectory)/\(required) is missing")
        }
        let library: MustacheLibrary
        do {
            library = try MustacheLibrary(
                directories: [configuration.templatesDirectory] + configuration.templateOverlays)
        } catch {
            throw StartupError(.templates, "\(error)", underlying: error)
        }
        for reference in library.missingReferences() {
            throw StartupError(
                .templates,
                "\(configuration.templatesDirectory)/\(reference.template).mustache:\(reference.line): no template named '\(reference.name)'"
            )
        }
        for required in [
            "layout", "pages/more", "pages/group", "pages/customize", "pages/error", "pages/confirm", "pages/offline",
        ]
        where library[required] == nil {
            throw StartupError(.templates, "\(configuration.templatesDirectory)/\(required).mustache is missing")
        }
        let validator = TabModelValidator(files: files, templateNames: Set(library.names))
        let model = try TabDefinition.load(path: configuration.tabsFile, validator: validator)
        // Streams may take half the connection budget; pages keep the other half.
        let events = EventHub(
            maximumTotal: max(1, configuration.http.connectionLimit / 2), heartbeat: configuration.liveHeartbeat)
        let tabs = TabModelHolder(TabBarController(model: model), validator: validator, events: events)
        let localizer: Localizer
        do {
            localizer = try Localizer(directory: configuration.localesDirectory, log: log)
        } catch {
            throw StartupError(.locales, path: error.path, error.reason, underlying: error.underlying)
        }
        let baseStore: any SessionStore
        if let sessionStore = setup.sessionStore {
            baseStore = sessionStore
        } else {
            let (store, relay) = try makeSessionStore(configuration, stores: setup.stores, log: log)
            baseStore = store
            if let relay {
                // Instances sharing sessions share live events too.
                events.connect(relay)
                relay.start { [weak events] payload in events?.receive(payload) }
            }
        }
        if case .redis = configuration.sessions, configuration.csrfSecret == nil {
            log.write(
                "no --csrf-secret: forms shown to visitors without a session are accepted by this instance only; give every instance sharing Redis the same secret",
                level: .warn)
        }
        if let header = configuration.identityHeader, configuration.trustedProxies.ranges.isEmpty {
            log.write(
                "--identity-header \(header) is set but --trusted-proxies is empty: every visitor is anonymous",
                level: .warn)
        }
        TabServerResponder.addLibraryRoutes(to: router)
        let routes = router.table()
        let metrics = configuration.metrics ? AppMetrics(routePatterns: routes.labels) : nil
        let store: any SessionStore = metrics.map { InstrumentedSessionStore(baseStore, metrics: $0) } ?? baseStore
        let views = PageRenderer(
            library: library, basePath: configuration.basePath, appName: configuration.appName,
            assets: PageRenderer.Assets(files: files, basePath: configuration.basePath),
            serviceWorker: configuration.serviceWorker)
        let push = try PushFeature.make(configuration, store: baseStore, log: log)
        var content = setup.content
        if let fallback = setup.fallback { content.fallback = fallback }
        let responder = TabServerResponder(
            configuration: configuration, tabs: tabs, store: store, views: views, content: content,
            files: files, localizer: localizer, hooks: setup.hooks, events: events, routes: routes,
            middleware: setup.middleware, metrics: metrics, log: log,
            backup: BackupEndpoint(store: baseStore, log: log), push: push, pageVariantPart: setup.pageVariant,
            clock: setup.clock)
        return Application.Built(responder: responder, tabs: tabs, store: baseStore, metrics: metrics)
    }
}

/// An app made and built at once, with `content` for its tabs: what tests and a `main`
/// that needs nothing more use.
///
/// - Parameters:
///   - content: the pages of every tab.
///   - hooks: the app's veto and observers (UIKit's tab bar controller delegate).
///   - middleware: steps around every answer, in order (the first outermost).
///   - redis: how to open sessions in Redis when the configuration names it
///     (`.standard` from the `TabServerRedisSessions` product); nil: not linked.
///   - sessionStore: a store of your own; nil opens the one the configuration names.
///   - log: start-up, reload and error messages.
///   - clock: seconds since 1970 (tests inject their own).
///
/// ```swift
/// var configuration = AppConfiguration()
/// configuration.tabsFile = "notes-tabs.json"
/// let app = try buildApplication(configuration, content: Notes(), hooks: hooks)
/// ```
public func buildApplication(
    _ configuration: AppConfiguration, content: any TabContentProvider = TabContent(), hooks: AppHooks = AppHooks(),
    middleware: [any RouterMiddleware<RequestContext>] = [], redis: RedisStoreOpener? = nil,
    sessionStore: (any SessionStore)? = nil, log: LogSink = .standardError,
    clock: @escaping @Sendable () -> Int64 = wallClockSeconds
) throws(StartupError) -> Application {
    let app = Application(configuration: configuration, log: log)
    app.content(content)
    app.hooks(hooks)
    for step in middleware { app.add(middleware: step) }
    if let redis { app.redis(redis) }
    if let sessionStore { app.sessionStore(sessionStore) }
    app.clock(clock)
    try app.build()
    return app
}

/// Opens the configured store through the app's registry. The stores count lifetimes
/// in whole seconds; values a hand-built configuration could get wrong are refused here
/// rather than trapping inside. `log` hears once when the store starts failing and once
/// when it works again.
func makeSessionStore(_ configuration: AppConfiguration, stores: SessionStoreRegistry, log: LogSink)
    throws(StartupError) -> SessionStoreRegistry.Opened
{
    let healthLog: StoreHealth.Log = { message, isFailure in log.write(message, level: isFailure ? .error : .info) }
    let idle = configuration.sessionIdleTimeout.components.seconds
    let absolute = configuration.sessionAbsoluteTimeout.components.seconds
    guard idle >= 1, absolute >= 1 else {
        throw StartupError(
            .configuration, "session lifetimes must be at least one second (idle \(idle) s, absolute \(absolute) s)")
    }
    do {
        return try stores.open(
            configuration.sessions, lifetime: SessionLifetime(idle: idle, absolute: absolute), healthLog: healthLog,
            log: log)
    } catch {
        throw StartupError(.sessions, "session store \(configuration.sessions): \(error.reason)", underlying: error)
    }
}
