// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerPush
import TabServerSQLiteSessions
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
    let store: any SessionStore
    let views: PageRenderer
    let content: any TabContentProvider
    let files: StaticFiles
    let localizer: Localizer
    let appHooks: AppHooks
    /// Every route: the library's and the app's.
    let routes: RouteTable<RequestContext>
    /// The app's middleware, around every answer (static files, pages, errors included).
    let appMiddleware: MiddlewareChain<RequestContext>
    /// One visitor's requests at a time in this process (see `VisitorLocks`).
    let visitorLocks = VisitorLocks()
    /// Finished tab pages, so a page seen again costs a look-up (see `PageAnswerCache`).
    let pageAnswers = PageAnswerCache(capacity: TabServerResponder.pageAnswerBytes)
    /// Who the authenticating proxy says the visitor is (`--identity-header`).
    let identity: IdentityReader
    /// Live updates for open pages (`GET /events`).
    public let events: EventHub
    let clock: @Sendable () -> Int64
    /// Nil when metrics are off: then nothing is measured at all.
    let metrics: AppMetrics?
    /// Signs the form tokens of visitors with no stored session (`--csrf-secret`).
    let formTokens: FormTokenSigner
    /// Where the app's unexpected errors and the library's messages go.
    let log: LogSink?
    /// The same, for the app's handlers (`RequestContext.log`).
    let appLog: LogSink
    /// `POST /admin/backup` (a SQLite store only).
    let backup: BackupEndpoint?
    /// Where observer hooks run: off the thread that completed the commit, in order per
    /// session (see `TabServerResponder+Hooks.swift`).
    let hookLanes: LaneQueue
    /// Hook events dropped because their lane was full.
    let hookOverflow: ErrorEpisode
    /// Where what blocks runs: store calls that wait, the app's own (`context.blocking`).
    let blockingPool: BlockingPool
    /// `store.readsEverythingAtOnce`, asked once (the store never changes its answer).
    let readsEverythingAtOnce: Bool
    /// `store.insertsAtOnce`, asked once.
    let insertsAtOnce: Bool
    /// Each client's budget of new sessions (nil: none, `newSessionRate` 0).
    let newSessions: ClientBudget?
    /// New sessions refused by the budget: counted, and logged once per episode.
    let newSessionRefusals = ErrorEpisode()
    /// Web Push (nil when off: see `PushFeature`).
    let push: PushFeature?
    /// Every page's `Speculation-Rules` value: the rules' URL, quoted.
    let speculationRulesHeader: String
    /// What the app adds to every page's variant (`Application.pageVariant`).
    let pageVariantPart: PageVariantPart?
    /// Every page's `Vary`, when the platform is chosen per request, and when it is not.
    let varyByPlatform: String
    let varyFixedPlatform: String
    /// The web app manifest and the service worker, generated from the model and files.
    let installed: InstalledAppFiles
    /// The offline cache key the service worker's requests get (nil: no worker).
    let offlineKey: OfflineCacheKey?
    /// What `/metrics` reads besides the counters (nil without metrics).
    var metricsSources: MetricsSources? {
        metrics.map { _ in
            MetricsSources(
                store: store, events: events, version: TabServerVersion.current,
                pageCache: { [pageAnswers] in
                    let footprint = pageAnswers.footprint
                    return (pageAnswers.hits, footprint.entries, footprint.bytes)
                },
                hooksWaiting: { [hookLanes] in hookLanes.waiting },
                hooksQueued: { [hookLanes] in hookLanes.accepted },
                hooksDropped: { [hookOverflow] in hookOverflow.total },
                newSessionsRefused: { [newSessionRefusals] in newSessionRefusals.total },
                workLaneJobs: { [blockingPool] in blockingPool.accepted }, push: Self.pushExposition(push))
        }
    }

    init(
        configuration: AppConfiguration, tabs: TabModelHolder, store: any SessionStore, views: PageRenderer,
        content: any TabContentProvider, files: StaticFiles, localizer: Localizer, hooks: AppHooks,
        events: EventHub, routes: RouteTable<RequestContext>, middleware: [any RouterMiddleware<RequestContext>],
        metrics: AppMetrics? = nil, log: LogSink? = nil, backup: BackupEndpoint? = nil, push: PushFeature? = nil,
        pageVariantPart: PageVariantPart? = nil, clock: @escaping @Sendable () -> Int64
    ) {
        self.pageVariantPart = pageVariantPart
        varyByPlatform = PageVariant.varyFields(platformStyle: .automatic, app: pageVariantPart?.fields ?? [])
        varyFixedPlatform = PageVariant.varyFields(platformStyle: .ios, app: pageVariantPart?.fields ?? [])
        self.backup = backup
        self.push = push
        speculationRulesHeader = "\"" + configuration.basePath + Self.speculationRulesPath + "\""
        let identity = IdentityReader(
            header: configuration.identityHeader, trust: configuration.trustedProxies, log: log)
        self.identity = identity
        self.log = log
        appLog = log ?? .standardError
        self.events = events
        self.metrics = metrics
        self.localizer = localizer
        self.configuration = configuration
        self.tabs = tabs
        self.store = store
        readsEverythingAtOnce = store.readsEverythingAtOnce
        insertsAtOnce = store.insertsAtOnce
        self.views = views
        self.content = content
        self.files = files
        self.appHooks = hooks
        self.clock = clock
        self.routes = routes
        appMiddleware = MiddlewareChain(middleware)
        formTokens = configuration.csrfSecret.map { FormTokenSigner(secret: Array($0.utf8)) } ?? .random()
        newSessions =
            configuration.newSessionRate > 0
            ? ClientBudget(rate: Double(configuration.newSessionRate), burst: configuration.newSessionBurst) : nil
        hookLanes = LaneQueue(lanes: Self.hookLaneCount, capacity: Self.hookLaneCapacity)
        hookOverflow = ErrorEpisode()
        blockingPool = BlockingPool(lanes: Self.blockingLanes, capacity: Self.blockingCapacity)
        installed = InstalledAppFiles(
            manifest: WebAppManifest(configuration: configuration, files: files),
            worker: ServiceWorkerScript(
                files: files, basePath: configuration.basePath, enabled: configuration.serviceWorker,
                pushKey: push?.applicationServerKey),
            tabs: tabs, localizer: localizer, basePath: configuration.basePath)
        offlineKey =
            configuration.serviceWorker
            ? OfflineCacheKey(cookieName: configuration.cookieName, identity: identity) : nil
    }

    /// The bytes `pageAnswers` holds at most: about 1,500 visitors' tab pages (with their
    /// gzip'd copies, some 3,000).
    static let pageAnswerBytes = 16 << 20

    /// Threads of the blocking pool: store calls that wait, the app's blocking work.
    static let blockingLanes = 4
    /// Jobs a lane of the pool holds before it refuses more with 503: a store that answers
    /// takes well under a millisecond a request; 256 queued means it does not.
    static let blockingCapacity = 256

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
    var now: Int64 { clock() }

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
}
