// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerPush
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

/// Builds an app from its setup: reads the files, compiles templates, loads the tab
/// definition, opens the session store and wires the routes (`Application.build`). In
/// development mode it builds again from files saved since (`rebuild`), keeping what
/// outlives a file: the store, the live events, the tab model's holder, the routes, the
/// metrics and push.
enum AppBuilder {
    /// What the app's folders hold, read and checked: the static files, the compiled
    /// templates, the tab model and the languages.
    struct LoadedFiles {
        let files: StaticFiles
        let library: MustacheLibrary
        let validator: TabModelValidator
        let model: TabBarModel
        let localizer: Localizer
    }

    static func build(
        configuration: AppConfiguration, setup: Application.Setup, router: Router<RequestContext>, log: LogSink
    )
        throws(StartupError) -> Application.Built
    {
        let loaded = try loadFiles(configuration, log: log)
        // Streams may take half the connection budget; pages keep the other half.
        let events = EventHub(
            maximumTotal: max(1, configuration.http.connectionLimit / 2), heartbeat: configuration.liveHeartbeat)
        let tabs = TabModelHolder(TabBarController(model: loaded.model), validator: loaded.validator, events: events)
        let appStore: any SessionStore
        if let sessionStore = setup.sessionStore {
            appStore = sessionStore
        } else {
            let (store, relay) = try makeSessionStore(configuration, stores: setup.stores, log: log)
            appStore = store
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
        let baseStore = AsyncSessionStoreBridge.engineView(of: appStore)
        let store: any EngineSessionStore =
            metrics.map { InstrumentedSessionStore(baseStore, metrics: $0) } ?? baseStore
        let lasting = Application.Lasting(
            tabs: tabs, events: events, appStore: appStore, baseStore: baseStore, store: store, routes: routes,
            metrics: metrics,
            push: try PushFeature.make(configuration, store: baseStore, log: log))
        return assemble(loaded, lasting: lasting, configuration: configuration, setup: setup, log: log)
    }

    /// The app built again from its files as they are now, keeping `previous`'s lasting
    /// parts (the tab model changes, and with it every page's variant). Throws, changing
    /// nothing, when a file does not load.
    static func rebuild(
        _ previous: Application.Built, configuration: AppConfiguration, setup: Application.Setup, log: LogSink
    ) throws(StartupError) -> Application.Built {
        let loaded = try loadFiles(configuration, log: log)
        previous.lasting.tabs.install(loaded.model, validator: loaded.validator)
        return assemble(loaded, lasting: previous.lasting, configuration: configuration, setup: setup, log: log)
    }

    /// Reads and checks the folders' files; throws naming the file, line and reason.
    static func loadFiles(_ configuration: AppConfiguration, log: LogSink) throws(StartupError) -> LoadedFiles {
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
        let localizer: Localizer
        do {
            localizer = try Localizer(directory: configuration.localesDirectory, log: log)
        } catch {
            throw StartupError(.locales, path: error.path, error.reason, underlying: error.underlying)
        }
        return LoadedFiles(files: files, library: library, validator: validator, model: model, localizer: localizer)
    }

    /// The responder made from `loaded` files around the `lasting` parts.
    private static func assemble(
        _ loaded: LoadedFiles, lasting: Application.Lasting, configuration: AppConfiguration,
        setup: Application.Setup, log: LogSink
    ) -> Application.Built {
        var configuration = configuration
        // Development mode keeps no page in a service worker: a worker installed before
        // removes itself.
        if configuration.developmentMode { configuration.serviceWorker = false }
        let views = PageRenderer(
            library: loaded.library, basePath: configuration.basePath, appName: configuration.appName,
            assets: PageRenderer.Assets(files: loaded.files, basePath: configuration.basePath),
            serviceWorker: configuration.serviceWorker, development: configuration.developmentMode)
        var content = setup.content
        if let fallback = setup.fallback { content.fallback = fallback }
        let responder = TabServerResponder(
            configuration: configuration, tabs: lasting.tabs, store: lasting.store, views: views, content: content,
            files: loaded.files, localizer: loaded.localizer, hooks: setup.hooks, events: lasting.events,
            routes: lasting.routes, middleware: setup.middleware, metrics: lasting.metrics, log: log,
            backup: BackupEndpoint(store: lasting.baseStore, log: log), push: lasting.push,
            pageVariantPart: setup.pageVariant, clock: setup.clock)
        return Application.Built(responder: responder, lasting: lasting)
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
