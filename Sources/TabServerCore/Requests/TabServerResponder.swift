// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerPush
import TabServerSessions
import TabServerTabBar
import TabServerThreads
import TabServerViews
import TabServerWeb

/// The app as a responder: the library's routes and the app's on one router, the app's
/// middleware around every answer, the visitors' sessions, pages and error pages. The
/// engine asks it on its loops (`immediateAnswer(to:)` for what needs no waiting, else
/// `answer(to:)` as a task on the loop); the in-process test client asks it the same way.
public final class TabServerResponder: HTTPResponder, Sendable {
    let configuration: AppConfiguration
    let tabs: TabModelHolder
    let store: any EngineSessionStore
    let content: any TabContentProvider
    /// Every route and the app's middleware.
    let routing: Routing
    /// What answering with a page takes: renderer, languages, files, the page cache.
    let pages: PageServing
    /// Who each visitor is and how their session is reached.
    let visitors: Visitors
    /// The app's hooks, and the lanes their events are delivered on.
    let hooks: HookDelivery
    /// The blocking pool, the metrics, the backup endpoint.
    let operations: Operations
    /// Live updates for open pages (`GET /events`).
    public let events: EventHub
    /// Web Push (nil when off: see `PushFeature`).
    let push: PushFeature?
    /// Where the app's unexpected errors and the library's messages go.
    let log: LogSink?

    /// What `/metrics` reads besides the counters (nil without metrics).
    var metricsSources: MetricsSources? {
        operations.metrics.map { _ in
            MetricsSources(
                store: store, events: events, version: TabServerVersion.current,
                pageCache: { [pages] in
                    let footprint = pages.answers.footprint
                    return (pages.answers.hits, footprint.entries, footprint.bytes)
                },
                hooksWaiting: { [hooks] in hooks.waiting },
                hooksQueued: { [hooks] in hooks.accepted },
                hooksDropped: { [hooks] in hooks.dropped },
                newSessionsRefused: { [visitors] in visitors.newSessionRefusals.total },
                workLaneJobs: { [operations] in operations.blockingPool.accepted }, push: Self.pushExposition(push))
        }
    }

    init(
        configuration: AppConfiguration, tabs: TabModelHolder, store: any EngineSessionStore, views: PageRenderer,
        content: any TabContentProvider, files: StaticFiles, localizer: Localizer, hooks: AppHooks,
        events: EventHub, routes: RouteTable<RequestContext>, middleware: [any RouterMiddleware<RequestContext>],
        metrics: AppMetrics? = nil, log: LogSink? = nil, backup: BackupEndpoint? = nil, push: PushFeature? = nil,
        pageVariantPart: PageVariantPart? = nil, clock: @escaping @Sendable () -> Int64
    ) {
        let identity = IdentityReader(
            header: configuration.identityHeader, trust: configuration.trustedProxies, log: log)
        self.configuration = configuration
        self.tabs = tabs
        self.store = store
        self.content = content
        self.events = events
        self.push = push
        self.log = log
        routing = Routing(routes: routes, middleware: MiddlewareChain(middleware))
        pages = PageServing(
            views: views, localizer: localizer, files: files,
            installed: InstalledAppFiles(
                manifest: WebAppManifest(configuration: configuration, files: files),
                worker: ServiceWorkerScript(
                    files: files, basePath: configuration.basePath, enabled: configuration.serviceWorker,
                    pushKey: push?.applicationServerKey),
                tabs: tabs, localizer: localizer, basePath: configuration.basePath),
            offlineKey: configuration.serviceWorker
                ? OfflineCacheKey(cookieName: configuration.cookieName, identity: identity) : nil,
            variantPart: pageVariantPart,
            varyByPlatform: PageVariant.varyFields(platformStyle: .automatic, app: pageVariantPart?.fields ?? []),
            varyFixedPlatform: PageVariant.varyFields(platformStyle: .ios, app: pageVariantPart?.fields ?? []),
            speculationRules: "\"" + configuration.basePath + SpeculationRoutes.speculationRulesPath + "\"")
        visitors = Visitors(
            identity: identity,
            formTokens: configuration.csrfSecret.map { FormTokenSigner(secret: Array($0.utf8)) } ?? .random(),
            newSessions: configuration.newSessionRate > 0
                ? ClientBudget(rate: Double(configuration.newSessionRate), burst: configuration.newSessionBurst) : nil,
            readsEverythingAtOnce: store.readsEverythingAtOnce, insertsAtOnce: store.insertsAtOnce, clock: clock)
        self.hooks = HookDelivery(hooks, log: log)
        operations = Operations(metrics: metrics, backup: backup)
    }

    /// Waits until the observers have been told of every event committed so far, for at
    /// most `timeout`; false when some were still queued or running then. For tests over
    /// a socket, and for a server that stops (its hooks get that long).
    public func finishHooks(within timeout: Duration) -> Bool { hooks.finish(within: timeout) }

    func sessionCookie(_ session: Session, request: HTTPRequest) -> String {
        Cookie(
            name: configuration.cookieName, value: session.id.text,
            path: configuration.basePath.isEmpty ? "/" : configuration.basePath,
            maxAge: Int(configuration.sessionAbsoluteTimeout.components.seconds), httpOnly: true,
            secure: isHTTPS(request),
            sameSite: .lax
        ).headerValue
    }

    /// Whether the visitor reached us over HTTPS: the configured public origin says so,
    /// or a trusted proxy does (a direct connection here is plain HTTP).
    func isHTTPS(_ request: HTTPRequest) -> Bool {
        if request.isSecure { return true }  // over the server's own TLS: Secure whatever else says
        if let publicOrigin = configuration.publicOrigin { return publicOrigin.isHTTPS }
        return configuration.trustedProxies.origin(of: request).isHTTPS
    }

    /// Seconds since 1970, from the injectable clock.
    var now: Int64 { visitors.clock() }

    /// A 303 See Other to a path inside the app.
    func redirect(to path: String) -> HTTPResponse {
        // Room for what the commit and middleware add (a cookie, a timing): grown from
        // empty, the list would be allocated twice.
        var headers = HTTPHeaders(capacity: 4)
        headers.add("Location", configuration.basePath + path)
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .seeOther, headers: headers)
    }

    /// The session for this request (loaded or created).
    func visitor(_ state: inout RequestState) throws(HTTPError) -> Session {
        try state.visitor(store: store, cookieName: configuration.cookieName, now: now)
    }

    /// An error an app's page or action threw: an `HTTPError` is its answer; any other is
    /// a fault of the app, logged and answered with 500.
    func reported(_ error: any Error) -> HTTPError {
        if let error = error as? HTTPError { return error }
        log?.write("an action or page of the app failed: \(error)", level: .error)
        return HTTPError.internalError()
    }

    /// A library route's handler: a synchronous step on the visitor's state (its session
    /// fetched already), which the commit after it writes back.
    static func library(
        _ body:
            @escaping @Sendable (TabServerResponder, HTTPRequest, RouteParameters, inout RequestState) throws(HTTPError)
            -> HTTPResponse
    ) -> Router<RequestContext>.Handler {
        { request, context in
            let handle = context.visitor
            return try body(handle.app, request, context.parameters, &handle.state)
        }
    }

    /// Adds the library's routes to `router`, the app's own router (so an app's route of
    /// its own may sit beside them, and a more specific one wins). Paths are below the
    /// base path.
    static func addLibraryRoutes(to router: Router<RequestContext>) {
        HealthRoutes.add(to: router)
        addTabPageRoutes(to: router)
        addSelectionRoutes(to: router)
        SidebarRoutes.add(to: router)
        AccessoryRoutes.add(to: router)
        addMoreRoutes(to: router)
        LiveEventRoutes.add(to: router)
        OfflineRoutes.add(to: router)
        addPushRoutes(to: router)
        SpeculationRoutes.add(to: router)
    }
}
