// SPDX-License-Identifier: Apache-2.0
import Synchronization
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerPush
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTabBar
import TabServerWeb

#if canImport(Glibc)
    import Glibc
#endif

/// A tab app: made with its configuration, given its tabs' pages and actions, routes of
/// its own anywhere on `router` (JSON endpoints, a sign-in page), middleware, hooks; then
/// built (templates compiled, the tab file read, the session store opened) and served:
/// `try await app.run()` in the `TabServer` module (flags, environment, signals), or
/// answered in-process by tests (`TestClient(app)`).
///
/// ```swift
/// let app = Application(configuration: configuration)
/// app.tab("list") { list in
///     list.page { _, context in try await groceries.page(context) }
/// }
/// app.router.get("/api/items") { _, _ in await groceries.items }
/// app.add(middleware: ServerTiming())
/// try app.build()                     // or let `run()` build it
/// ```
public final class Application: Sendable {
    /// The configuration it is built with.
    public let configuration: AppConfiguration
    /// The app's routes, beside the library's (added when it is built: an app's route
    /// of the same pattern and method comes first).
    public let router = Router<RequestContext>()
    /// Where start-up, reload and error messages go (the app's name starts each line).
    public let log: LogSink

    /// What the app is given before it is built.
    struct Setup: Sendable {
        var content = TabContent()
        var fallback: (any TabContentProvider)?
        var hooks = AppHooks()
        var middleware: [any RouterMiddleware<RequestContext>] = []
        var stores = SessionStoreRegistry.standard
        var sessionStore: (any SessionStore)?
        var clock: @Sendable () -> Int64 = wallClockSeconds
        var pageVariant: PageVariantPart?
    }

    /// What building made: the responder, and what outlives it when development mode
    /// builds it again from saved files.
    struct Built: Sendable {
        let responder: TabServerResponder
        let lasting: Lasting
    }

    /// The parts of a built app that no file change replaces: the tab model's holder (its
    /// model is replaced), the live events, the store (as the app opened it, `appStore`;
    /// as the engine calls it, `baseStore`; and `store` as the metrics count it), the
    /// routes, the metrics and push.
    struct Lasting: Sendable {
        let tabs: TabModelHolder
        let events: EventHub
        let appStore: any SessionStore
        let baseStore: any EngineSessionStore
        let store: any EngineSessionStore
        let routes: RouteTable<RequestContext>
        let metrics: AppMetrics?
        let push: PushFeature?
    }

    let setup = Mutex(Setup())
    let built = Mutex<Built?>(nil)
    /// Development mode: the problem of a saved file that does not load, while it lasts.
    let problemState = Mutex<DevelopmentProblem?>(nil)

    /// An app configured with `configuration`, its messages to `log` (standard error,
    /// under the configured app name, unless given).
    public init(configuration: AppConfiguration = AppConfiguration(), log: LogSink? = nil) {
        self.configuration = configuration
        self.log = log ?? LogSink(descriptor: 2, format: configuration.logFormat, name: configuration.logName)
    }

    // MARK: Before it is built

    /// Declares the pages and actions of the tab with this id (again: adds to them).
    public func tab(_ id: String, _ declare: (inout TabRoutes) -> Void) {
        setup.withLock { setup in setup.content.tab(id, declare) }
    }

    /// Declares the strip above the bar that stays across tabs (`TabAccessory`).
    public func bottomAccessory(_ make: @escaping @Sendable (TabAccessoryRequest) -> TabAccessory?) {
        setup.withLock { $0.content.bottomAccessory(make) }
    }

    /// Content of the app's own for the tabs `tab(_:_:)` does not declare (a provider that
    /// matches locations itself).
    public func content(_ provider: any TabContentProvider) {
        setup.withLock { $0.fallback = provider }
    }

    /// The app's veto and observers (UIKit's tab bar controller delegate).
    public func hooks(_ hooks: AppHooks) {
        setup.withLock { $0.hooks = hooks }
    }

    /// Adds a middleware step around every answer the app gives (static files, the
    /// manifest, the service worker, pages and errors included), inside the steps added
    /// before it.
    public func add(middleware step: some RouterMiddleware<RequestContext>) {
        setup.withLock { $0.middleware.append(step) }
    }

    /// How to open sessions in Redis when the configuration names it (`.standard` from the
    /// `TabServerRedisSessions` product).
    public func redis(_ opener: RedisStoreOpener) {
        setup.withLock { setup in
            for scheme in RedisStoreOpener.schemes { setup.stores.register(scheme: scheme, opener.opener) }
        }
    }

    /// Opens the app's own kind of session store when `--sessions` names its scheme
    /// (`folder:/var/lib/shop` for `scheme: "folder"`); the opener reads the configuration's
    /// `location`. A store of the app's own adopts `SessionStore`.
    ///
    /// ```swift
    /// app.sessionStores(scheme: "folder") { configuration, opening throws(SessionStoreError) in
    ///     (try FolderStore(configuration.location, lifetime: opening.lifetime), nil)
    /// }
    /// ```
    public func sessionStores(scheme: String, _ opener: @escaping SessionStoreRegistry.Opener) {
        setup.withLock { $0.stores.register(scheme: scheme, opener) }
    }

    /// A session store of the app's own instead of the one the configuration names.
    public func sessionStore(_ store: any SessionStore) {
        setup.withLock { $0.sessionStore = store }
    }

    /// Adds a part of the app's own to every page's variant: pages that differ in it are
    /// cached apart (whole renderings, finished answers, ETags), and every page names
    /// `fields`, the request fields `part` reads, in `Vary`. The page's template has it as
    /// `{{appVariant}}`, a handler as `context.pageVariant`.
    ///
    /// ```swift
    /// app.pageVariant(varyingOn: ["Cookie"]) { request in request.cookie("theme") == "dark" ? "dark" : "" }
    /// ```
    public func pageVariant(varyingOn fields: [String], _ part: @escaping @Sendable (HTTPRequest) -> String) {
        setup.withLock { $0.pageVariant = PageVariantPart(fields: fields, decide: part) }
    }

    /// The clock the app counts session lifetimes by, in seconds since 1970 (tests).
    public func clock(_ clock: @escaping @Sendable () -> Int64) {
        setup.withLock { $0.clock = clock }
    }

    // MARK: Built

    /// Builds the app once: reads the files, compiles templates, loads the tab definition,
    /// opens the session store and wires the routes. Anything wrong stops here with a
    /// message naming the file, line and reason. Calling it again does nothing.
    public func build() throws(StartupError) {
        if built.withLock({ $0 != nil }) { return }
        let made = try AppBuilder.build(
            configuration: configuration, setup: setup.withLock { $0 }, router: router, log: log)
        built.withLock { if $0 == nil { $0 = made } }
    }

    /// Whether `build()` has succeeded.
    public var isBuilt: Bool { built.withLock { $0 != nil } }

    private var parts: Built {
        if let parts = built.withLock({ $0 }) { return parts }
        do {
            try build()
        } catch {
            preconditionFailure("the app could not be built: \(error)")
        }
        return built.withLock { $0! }
    }

    /// The app as a responder (built on first use; call `build()` first to handle its errors).
    public var responder: TabServerResponder { parts.responder }
    /// The shared tab controller (replace the model, set hooks).
    public var tabs: TabModelHolder { parts.lasting.tabs }
    /// The session store.
    public var store: any SessionStore { parts.lasting.appStore }
    /// The store as the engine calls it (synchronously, with its fast paths).
    package var engineStore: any EngineSessionStore { parts.lasting.baseStore }
    /// The Prometheus metrics, when `configuration.metrics` is on (served at `/metrics`).
    public var metrics: AppMetrics? { parts.lasting.metrics }

    /// Removes expired sessions once, on the blocking pool, logging how many went (or why
    /// it failed). `AppServer` runs it periodically while it serves.
    public func sweepExpiredSessions() async {
        let store = engineStore
        do {
            let removed = try await responder.operations.blockingPool.run { () throws -> Int in
                try store.sweep(now: wallClockSeconds())
            }
            if removed > 0 { log.write("swept \(removed) expired session(s)") }
        } catch {
            log.write("session sweep failed: \(error)", level: .error)
        }
    }

    /// Re-reads the tab definition file. An invalid file keeps the current model; the
    /// error is returned (and logged) so the caller can report it.
    @discardableResult
    public func reloadTabs() -> StartupError? {
        let refusal: StartupError
        do throws(StartupError) {
            let model = try TabDefinition.load(path: configuration.tabsFile, validator: tabs.validator)
            do {
                try tabs.replaceModel(model)
                log.write("reloaded \(configuration.tabsFile): \(model.tabs.count) tabs")
                return nil
            } catch {
                refusal = StartupError(.tabs, path: configuration.tabsFile, "\(error)", underlying: error)
            }
        } catch {
            refusal = error
        }
        log.write("reload of \(configuration.tabsFile) refused, keeping the current tabs: \(refusal)", level: .error)
        return refusal
    }
}
