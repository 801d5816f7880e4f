// SPDX-License-Identifier: Apache-2.0
import Dispatch
import TabServerHTTP
import TabServerMustache
import TabServerSessions
import TabServerTabBar
import TabServerThreads
import TabServerWeb

/// The app as a responder: routes, sessions, pages and error pages. The engine calls it
/// on its threads; tests call `respond(to:)` directly (the in-process client).
public final class TabServerResponder: HTTPResponder, Sendable {
    let configuration: AppConfiguration
    let tabs: TabModelHolder
    let store: any SessionStore
    let views: PageRenderer
    let content: any TabContentProvider
    let files: StaticFiles
    let localizer: Localizer
    let appHooks: AppHooks
    let router: Router<RequestState>
    /// Every step a request takes before the sessions and routes, in order: the
    /// library's (metrics, base path, manifest and service worker, static files, the
    /// offline cache key), then the app's.
    public let middleware: MiddlewareChain
    let sessionLocks = SessionLocks()
    /// Finished tab pages, so a page seen again costs a look-up (see `PageAnswerCache`).
    let pageAnswers = PageAnswerCache(capacity: TabServerResponder.pageAnswerBytes)
    /// Serializes a signed-in user's requests from all their browsers in this process
    /// (apart from `sessionLocks`, so taking both never waits on itself).
    let userLocks = SessionLocks()
    /// Who the authenticating proxy says the visitor is (`--identity-header`).
    let identity: IdentityReader
    /// Live updates for open pages (`GET /events`).
    public let events: EventHub
    let clock: @Sendable () -> Int64
    /// Nil when metrics are off: then nothing is measured at all.
    let metrics: AppMetrics?
    /// Signs the form tokens of visitors with no stored session (`--csrf-secret`).
    let formTokens: FormTokenSigner
    /// Where an app's unexpected errors are reported.
    let log: LogSink?
    /// `POST /admin/backup` (a SQLite store only).
    let backup: BackupEndpoint?
    /// Where observer hooks run: off the thread that completed the commit, in order per
    /// session (see `TabServerResponder+Hooks.swift`).
    let hookLanes: LaneQueue
    /// Hook events dropped because their lane was full.
    let hookOverflow: ErrorEpisode
    /// Where requests that would wait on the store run (see `TabServerResponder+Workers.swift`).
    let workLanes: LaneQueue
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

    init(
        configuration: AppConfiguration, tabs: TabModelHolder, store: any SessionStore, views: PageRenderer,
        content: any TabContentProvider, files: StaticFiles, localizer: Localizer, hooks: AppHooks,
        events: EventHub, metrics: AppMetrics? = nil, log: LogSink? = nil, middleware: [any Middleware] = [],
        backup: BackupEndpoint? = nil, push: PushFeature? = nil,
        clock: @escaping @Sendable () -> Int64
    ) {
        self.backup = backup
        self.push = push
        speculationRulesHeader = "\"" + configuration.basePath + Self.speculationRulesPath + "\""
        let identity = IdentityReader(
            header: configuration.identityHeader, trust: configuration.trustedProxies, log: log)
        self.identity = identity
        self.log = log
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
        formTokens = configuration.csrfSecret.map { FormTokenSigner(secret: Array($0.utf8)) } ?? .random()
        newSessions =
            configuration.newSessionRate > 0
            ? ClientBudget(rate: Double(configuration.newSessionRate), burst: configuration.newSessionBurst) : nil
        router = Self.makeRouter()
        let trust = configuration.trustedProxies
        let hookLanes = LaneQueue(lanes: Self.hookLaneCount, capacity: Self.hookLaneCapacity)
        let hookOverflow = ErrorEpisode()
        let workLanes = LaneQueue(lanes: Self.workLaneCount, capacity: Self.workLaneCapacity)
        self.hookLanes = hookLanes
        self.hookOverflow = hookOverflow
        self.workLanes = workLanes
        // The library's steps, each only where it has something to do (metrics on, a
        // store that backs up, a base path): a step that only passes the request on
        // still costs every request a call.
        var library: [any Middleware] = []
        if let metrics {
            library.append(
                MetricsEndpoint(
                    metrics: metrics, trust: trust, workers: workLanes,
                    sources: MetricsSources(
                        store: store, events: events, pageAnswers: pageAnswers, hooksWaiting: { hookLanes.waiting },
                        hooksQueued: { hookLanes.accepted }, hooksDropped: { hookOverflow.total },
                        newSessionsRefused: { [newSessionRefusals] in newSessionRefusals.total },
                        workLaneJobs: { workLanes.accepted }, push: Self.pushExposition(push))))
        }
        if let backup { library.append(AdminBackupStep(backup: backup)) }
        if !configuration.basePath.isEmpty {
            library.append(BasePathStep(basePath: configuration.basePath, trust: trust, metrics: metrics))
        }
        library.append(
            InstalledAppStep(
                manifest: WebAppManifest(configuration: configuration, files: files),
                worker: ServiceWorkerScript(
                    files: files, basePath: configuration.basePath, enabled: configuration.serviceWorker),
                tabs: tabs, localizer: localizer, basePath: configuration.basePath, trust: trust, metrics: metrics))
        library.append(StaticFilesStep(files: files, trust: trust, metrics: metrics))
        if configuration.serviceWorker {
            library.append(OfflineCacheKeyStep(cookieName: configuration.cookieName, identity: identity))
        }
        self.middleware = MiddlewareChain(library + middleware)
    }

    /// The bytes `pageAnswers` holds at most: about 1,500 visitors' tab pages (with their
    /// gzip'd copies, some 3,000).
    static let pageAnswerBytes = 16 << 20

    /// At most this many attempts when another request wrote the same session meanwhile.
    static let maxWriteAttempts = 16

    /// The answer to `request` for a caller in this process (tests): it returns once the
    /// answer is there and the hooks of the requests answered so far have run.
    public func respond(to request: HTTPRequest) -> HTTPResponse {
        let response = answer(request).wait()
        _ = finishHooks(within: .seconds(5))
        return response
    }

    /// The answer to `request`: at once, or once the session writes it rests on are
    /// durable (a store that commits in groups), so the engine thread serves other
    /// connections meanwhile. The request takes the middleware chain (`middleware`):
    /// the library's steps (metrics, base path, static files), the app's, then the
    /// sessions and routes.
    public func answer(_ request: HTTPRequest) -> HTTPAnswer {
        middleware.answer(request) { request in
            let origin = configuration.trustedProxies.origin(of: request)
            var finishing = finishing(request, origin: origin)
            return routes(request, origin: origin, finishing: &finishing)
        }
    }

    func finishing(_ request: HTTPRequest, origin: RequestOrigin) -> Finishing {
        Finishing(request, origin: origin, metrics: metrics)
    }

    /// The sessions and routes: the end of the middleware chain, for a request whose
    /// path is already below the base path.
    ///
    /// `synchronously`: confirm or write the session on this thread (a request run again
    /// after its pipelined check or write found the copy stale), so a request is run
    /// again at most once that way.
    ///
    /// `onWorker`: the request already runs on a worker lane (see `runOnWorker`), so it
    /// may wait on the store; on any other thread (an engine loop) a request that would
    /// wait is handed to a worker first.
    func routes(
        _ request: HTTPRequest, origin: RequestOrigin, finishing: inout Finishing, synchronously: Bool = false,
        contentResult: ContentResult? = nil, onWorker: Bool = false
    ) -> HTTPAnswer {
        // A form post's fields, decoded once here for every route; any other body is the
        // route's to decode (an app's action taking JSON), or refused by it with 415.
        var request = request
        var bodyError: HTTPError? = nil
        if !request.body.isEmpty, request.formFields.isEmpty, request.hasFormBody {
            do {
                request.formFields = try request.decodeForm(limits: configuration.bodyLimits).fields
            } catch {
                bodyError = error
            }
        }
        let (resolution, pattern) = router.resolveWithPattern(request.method, request.path)
        if let pattern { finishing.route = pattern }
        // A visitor's requests run one at a time in this process (see `SessionLocks`);
        // a request without a session cookie creates a new session and races no one.
        // A signed-in user's requests from all their browsers do too.
        let user = identity.user(of: request)
        let finishing = finishing
        let cookie = request.cookie(configuration.cookieName)
        let mayWait = onWorker || synchronously || contentResult != nil
        // A page seen before, of a session unchanged since, changes nothing: it is answered
        // from the cache without the visitor's lock, so two engine threads serving one
        // visitor's reloads never wait for each other. Asked first: it never waits (a
        // session the store does not hold in memory is not asked for).
        var asked = false
        if user == nil, contentResult == nil, case .found = resolution {
            switch cachedPage(request, cookie: cookie) {
            case .hit(let cached): return .now(finishing.finish(cached))
            case .miss: asked = true
            case .notAsked: break
            }
        }
        if !mayWait, wouldWait(request, cookie: cookie, user: user) {
            return runOnWorker(request, cookie: cookie, user: user, finishing: finishing)
        }
        let run = { [request] (user: String?) in
            self.run(
                request, user: user, cookie: cookie, resolution: resolution, bodyError: bodyError,
                finishing: finishing, synchronously: synchronously, contentResult: contentResult,
                pageCacheAsked: asked, mayWait: mayWait)
        }
        guard let cookie else {
            return user.map { user in userLocks.withLock(for: user) { run(user) } } ?? run(nil)
        }
        let locked = { user.map { user in self.userLocks.withLock(for: user) { run(user) } } ?? run(nil) }
        if mayWait { return sessionLocks.withLock(for: cookie, locked) }
        // An engine thread never waits for a visitor's lock (its holder may be waiting on
        // the store): a request whose visitor is busy runs on a worker.
        return sessionLocks.withLockIfAvailable(for: cookie, locked)
            ?? runOnWorker(request, cookie: cookie, user: user, finishing: finishing)
    }

    /// Runs the handler and commits the session. Only a conflicting write from another
    /// instance sharing the store re-runs it, on the fresh session; observer hooks fire
    /// once, after the commit is durable, and the answer waits for that too.
    private func run(
        _ request: HTTPRequest, user: String?, cookie: String?, resolution: Router<RequestState>.Resolution,
        bodyError: HTTPError?,
        finishing: Finishing, synchronously: Bool, contentResult: ContentResult?, pageCacheAsked: Bool = false,
        mayWait: Bool = true
    ) -> HTTPAnswer {
        for attempt in 0..<Self.maxWriteAttempts {
            var state = RequestState(
                app: self, request: request, model: tabs.current, user: user, contentResult: contentResult)
            state.pageCacheAsked = pageCacheAsked && attempt == 0
            state.knowCookie(cookie)
            var response: HTTPResponse
            do throws(HTTPError) {
                if let bodyError { throw bodyError }
                switch resolution {
                case .found(let handler, let parameters):
                    response = try handler(request, parameters, &state)
                    // The script's post: the page the 303 leads to, in this one round trip.
                    if Self.asksForPage(request), let page = followedPage(to: response, for: request, state: &state) {
                        response = page
                    }
                case .methodNotAllowed(let allowed):
                    throw HTTPError.methodNotAllowed(allowed: allowed)
                case .notFound:
                    throw HTTPError.notFound()
                }
            } catch {
                state.discardChanges()
                response = errorPage(error, state: &state)
            }
            response = PageCompression.compressing(response, for: request)
            if let work = state.contentWork {
                // Nothing is kept of this attempt: the work runs without the visitor's
                // lock, and the request runs again with its result.
                return later(work, request: request, finishing: finishing)
            }
            // A new session on a store that writes it with a round trip (Redis): nothing is
            // kept of this attempt, the request runs on a worker, which may wait.
            if !mayWait, !insertsAtOnce, insertsNewSession(state) {
                return runOnWorker(request, cookie: nil, user: user, finishing: finishing)
            }
            switch commit(&state) {
            case .done(let cookie):
                if let cookie { response.headers.add("Set-Cookie", cookie) }
                return afterCommit(response, state: state, finishing: finishing)
            case .changed(let session):
                // Written in the store's pipeline while this thread serves others, if the
                // store can; else here.
                if !synchronously, store.answersLater,
                    let answer = writeLater(
                        session, response: response, Announcement(state), request: request, finishing: finishing)
                {
                    return answer
                }
                let kept: PageAnswerCache.Pending?
                do {
                    guard let written = try store.update(session) else { continue }
                    kept = keepAfterWrite(state, written: written)
                } catch {
                    return .now(finishing.finish(unsavedPage(request)))
                }
                return afterCommit(response, state: state, finishing: finishing, keeping: kept)
            case .unchanged(let loaded):
                // A cached copy the answer rests on: confirmed in the store's pipeline while
                // this thread serves others, if the store can; else here.
                if !synchronously, user == nil, store.answersLater,
                    let answer = confirmLater(
                        loaded, response: response, Announcement(state), request: request, finishing: finishing)
                {
                    return answer
                }
                do {
                    guard try store.isCurrent(loaded) else { continue }
                } catch {
                    return .now(finishing.finish(unsavedPage(request)))
                }
                return afterCommit(response, state: state, finishing: finishing)
            case .conflict:
                continue
            case .failed(let error):
                var bare = RequestState(app: self, request: request, model: tabs.current)
                return .now(finishing.finish(errorPage(error, state: &bare, withSession: false)))
            }
        }
        var bare = RequestState(app: self, request: request, model: tabs.current)
        return .now(
            finishing.finish(
                errorPage(
                    HTTPError.conflict("Your settings were changed by many requests at once. Please reload the page."),
                    state: &bare,
                    withSession: false)))
    }

    /// What a request tells others once its writes are durable: its hook events, and
    /// which visitor's other windows redraw their bar.
    struct Announcement: Sendable {
        let events: [HookEvent]
        let user: String?
        let redraw: SessionID?
        let sessionID: SessionID?
        let userRecordID: SessionID?
        /// The window the script's request came from (`TabServer-Window`): its own answer
        /// shows the change already, so it need not redraw its bar for the event.
        let window: String?
        /// For the error page, in the visitor's language, should the writes fail.
        let request: HTTPRequest

        init(_ state: borrowing RequestState) {
            request = state.request
            events = state.events
            user = state.user
            // A badge the visitor cleared (a tab with `clearsBadgeOnSelect`) disappears in
            // their other windows too.
            let badgesChanged =
                state.loaded != nil && state.loaded?.state.badgeOverrides != state.session?.state.badgeOverrides
            // The visitor's other windows (a signed-in user's on every device) redraw their bar.
            redraw =
                state.arrangementChanged || badgesChanged
                ? state.user.map({ SessionID.user($0) }) ?? state.session?.id : nil
            sessionID = state.session?.id
            userRecordID = state.userRecord?.id
            window = state.request.headers["tabserver-window"].flatMap(Self.windowID)
        }

        /// A window's id as the script makes it: 8 to 64 letters, digits, `-` or `_`.
        static func windowID(_ value: String) -> String? {
            let valid =
                (8...64).contains(value.utf8.count)
                && value.utf8.allSatisfy { byte in
                    (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
                        || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
                        || byte == UInt8(ascii: "_")
                }
            return valid ? value : nil
        }

        /// The sessions the answer rests on.
        var ids: [SessionID] { [sessionID, userRecordID].compactMap { $0 } }
    }

    /// Delivers the request's hook events and tells the visitor's other windows, once
    /// the writes it rests on are durable — then answers; if they fail, answers 503
    /// (the store has undone them) and tells no one.
    /// A page the request rendered for the revision it wrote (`keeping`) is kept then too.
    private func afterCommit(
        _ response: HTTPResponse, state: RequestState, finishing: Finishing,
        keeping page: PageAnswerCache.Pending? = nil
    ) -> HTTPAnswer {
        // Most stores write before returning, and most requests rest on sessions written
        // long ago: nothing to wait for, nothing to allocate.
        guard store.commitsInGroups, awaitsCommit(state) else {
            if let page { keep(page) }
            announce(Announcement(state))
            return .now(finishing.finish(response))
        }
        return afterCommit(response, Announcement(state), finishing: finishing, keeping: page)
    }

    /// Whether a session the answer rests on has a write that is not durable yet.
    private func awaitsCommit(_ state: borrowing RequestState) -> Bool {
        if let id = state.session?.id, store.awaitsCommit(id) { return true }
        if let id = state.userRecord?.id, store.awaitsCommit(id) { return true }
        return false
    }

    private func afterCommit(
        _ response: HTTPResponse, _ announcement: Announcement, finishing: Finishing,
        keeping page: PageAnswerCache.Pending? = nil
    ) -> HTTPAnswer {
        guard store.commitsInGroups else {
            if let page { keep(page) }
            announce(announcement)
            return .now(finishing.finish(response))
        }
        let deferred = DeferredResponse()
        let waiting = store.whenDurable(announcement.ids) { [self] error in
            // A write that failed is undone, and its revision may be made again by another.
            guard error == nil else {
                deferred.complete(finishing.finish(unsavedPage(announcement.request)))
                return
            }
            if let page { keep(page) }
            announce(announcement)
            deferred.complete(finishing.finish(response))
        }
        guard waiting else {
            if let page { keep(page) }
            announce(announcement)
            return .now(finishing.finish(response))
        }
        return .later(deferred)
    }

    /// Has the hook events delivered and tells the other windows to redraw.
    private func announce(_ announcement: Announcement) {
        if !announcement.events.isEmpty, appHooks.observes { deliverLater(announcement) }
        if let redraw = announcement.redraw {
            events.publish("bar", data: announcement.window.map { "{\"from\":\"\($0)\"}" } ?? "{}", to: redraw)
        }
    }

    /// Asks the store, without waiting, whether the cached session the answer rests on is
    /// current; nil when the store cannot ask that way.
    private func confirmLater(
        _ loaded: Session, response: HTTPResponse, _ announcement: Announcement, request: HTTPRequest,
        finishing: Finishing
    ) -> HTTPAnswer? {
        answerLater(response, announcement, request: request, finishing: finishing) { settled in
            store.isCurrent(loaded, then: settled)
        }
    }

    /// Writes a changed (anonymous) session without waiting, if the store can; nil when
    /// it cannot.
    private func writeLater(
        _ session: Session, response: HTTPResponse, _ announcement: Announcement, request: HTTPRequest,
        finishing: Finishing
    ) -> HTTPAnswer? {
        answerLater(response, announcement, request: request, finishing: finishing) { settled in
            store.update(session) { result in settled(result.map { $0 != nil }) }
        }
    }

    /// The answer once the store has settled, later, what it rests on (`ask` returns false
    /// when the store cannot answer that way: then nil). Settled: the answer goes out.
    /// Stale or lost to another write: the request runs again, once, on the fresh session.
    /// Failed: 503.
    private func answerLater(
        _ response: HTTPResponse, _ announcement: Announcement, request: HTTPRequest, finishing: Finishing,
        ask: (@escaping @Sendable (Result<Bool, SessionStoreError>) -> Void) -> Bool
    ) -> HTTPAnswer? {
        let deferred = DeferredResponse()
        let asked = ask { [self] result in
            switch result {
            case .success(true):
                Self.complete(deferred, with: afterCommit(response, announcement, finishing: finishing))
            case .success(false):
                runAgain(request, finishing: finishing, into: deferred)
            case .failure:
                deferred.complete(finishing.finish(unsavedPage(request)))
            }
        }
        return asked ? .later(deferred) : nil
    }

    /// Runs slow content work as a task on the content executor, then the request again
    /// with its result (off the engine's threads: a global queue), answering through a
    /// `DeferredResponse`.
    private func later(_ work: ContentWork, request: HTTPRequest, finishing: Finishing) -> HTTPAnswer {
        let deferred = DeferredResponse()
        Task(executorPreference: ContentExecutor.shared) { [self] in
            let result = await work.run { error in self.reported(error) }
            DispatchQueue.global().async { [self] in
                var again = finishing
                let origin = configuration.trustedProxies.origin(of: request)
                Self.complete(deferred, with: routes(request, origin: origin, finishing: &again, contentResult: result))
            }
        }
        return .later(deferred)
    }

    /// An error an app's page or action threw: an `HTTPError` is its answer; any other is
    /// a fault of the app, logged and answered with 500.
    func reported(_ error: any Error) -> HTTPError {
        if let error = error as? HTTPError { return error }
        log?.write("tabserver: an action or page of the app failed: \(error)", level: .error)
        return HTTPError.internalError()
    }

    /// Runs a request again, synchronously, off the store's thread, and completes
    /// `deferred` with its answer.
    private func runAgain(_ request: HTTPRequest, finishing: Finishing, into deferred: DeferredResponse) {
        DispatchQueue.global().async { [self] in
            var again = finishing
            let origin = configuration.trustedProxies.origin(of: request)
            Self.complete(deferred, with: routes(request, origin: origin, finishing: &again, synchronously: true))
        }
    }

    /// Completes `deferred` with `answer`, when it comes if it comes later too (no thread
    /// waits for it).
    static func complete(_ deferred: DeferredResponse, with answer: HTTPAnswer) {
        switch answer {
        case .now(let response): deferred.complete(response)
        case .later(let inner): inner.attach { if let response = inner.take() { deferred.complete(response) } }
        }
    }

    /// The 503 page for a store that cannot confirm or keep a change.
    private func unsavedPage(_ request: HTTPRequest) -> HTTPResponse {
        var bare = RequestState(app: self, request: request, model: tabs.current)
        return errorPage(Self.unsaved, state: &bare, withSession: false)
    }

    /// The answer when the store cannot write.
    static let unsaved = HTTPError.unavailable("Your settings cannot be saved right now. Please try again in a moment.")

    private enum CommitResult {
        case done(cookie: String?)
        /// Nothing to write; the answer stands if `loaded` is still the stored session.
        case unchanged(Session)
        /// To write with compare-and-set (the caller does, now or in the store's pipeline).
        case changed(Session)
        case conflict
        case failed(HTTPError)
    }

    /// Writes the session back if this request changed it: a new session is inserted and
    /// its cookie set only when it holds something to remember (a cookieless visitor in
    /// the default state costs no row and gets no cookie); a changed one is written only if nobody wrote it meanwhile
    /// (otherwise the whole request is run again on the fresh session); an unchanged one
    /// is confirmed current (one cheap check in a shared store, none in the others).
    /// Whether committing `state` stores a new session (what `commit` inserts).
    private func insertsNewSession(_ state: borrowing RequestState) -> Bool {
        guard state.isNewSession, let final = state.session else { return false }
        return !state.browserPart(of: final).isDefault(for: state.controller)
    }

    private func commit(_ state: inout RequestState) -> CommitResult {
        guard let final = state.session else { return .done(cookie: nil) }
        // Signed in: the user's record first (another browser of theirs, on another
        // instance, may have written it: then run the request again on the fresh one).
        if let record = state.userPart(of: final) {
            switch commitUser(record, stored: state.storedUser) {
            case .done: break
            case let other: return other
            }
        }
        var session = state.browserPart(of: final)
        do {
            if state.isNewSession {
                guard !session.isDefault(for: state.controller) else { return .done(cookie: nil) }
                if let refusal = refuseNewSession(state) { return refusal }
                // Its pages carried the signed token shared by cookieless pages; from now on
                // its forms carry a random token of its own, checked against the stored one.
                session.csrfToken = state.ownToken ?? .generate()
                try store.insert(session)
                return .done(cookie: sessionCookie(session, request: state.request))
            }
            guard let loaded = state.storedBrowser ?? state.loaded else { return .done(cookie: nil) }
            // Nothing to write: the answer stands if the session it rests on was current
            // (a shared store's cached copy may not have been; then run it again).
            if session == loaded { return .unchanged(loaded) }
            session.revision = loaded.revision
            // Anonymous: one record, so the write may go on without this thread.
            if state.user == nil { return .changed(session) }
            return try store.update(session) == nil ? .conflict : .done(cookie: nil)
        } catch {
            return .failed(Self.unsaved)
        }
    }

    /// Whether the budget keeps this request's new session from being stored: then a page
    /// is answered without one (no cookie), and a post, whose change would be lost, is
    /// answered 429 with `Retry-After`. Nil when it may be stored (its unit is taken).
    private func refuseNewSession(_ state: borrowing RequestState) -> CommitResult? {
        guard let newSessions else { return nil }
        let client = state.clientKey
        var retryAfter = 1
        if !state.newSessionRefused {
            guard case .refused(let seconds) = newSessions.take(client) else { return nil }
            retryAfter = seconds
        }
        if let count = newSessionRefusals.record() {
            log?.write(
                "tabserver: new sessions refused for \(client) (past \(newSessions.burst) at once and \(Int(newSessions.rate))/s; \(count) since the last line): served without a session",
                level: .warn)
        }
        let method = state.request.method
        guard method != .get, method != .head else { return .done(cookie: nil) }
        return .failed(
            .tooManyRequests(
                "Too many new visitors come from your network right now, so this could not be saved. Please try again in a moment.",
                retryAfter: retryAfter))
    }

    /// Writes a signed-in user's record if this request changed it (a new one only when it
    /// holds a choice), with compare-and-set like a session; an unchanged one is confirmed
    /// current. Two browsers creating the same user's record at once: the loser runs again.
    private func commitUser(_ record: Session, stored: Session?) -> CommitResult {
        do {
            guard let stored else {
                guard record.hasOwnChoices else { return .done(cookie: nil) }
                do {
                    try store.insert(record)
                } catch {
                    // Most likely inserted meanwhile by another instance; a store that is
                    // down fails the next attempt's load.
                    return .conflict
                }
                return .done(cookie: nil)
            }
            if record == stored { return try store.isCurrent(stored) ? .done(cookie: nil) : .conflict }
            var changed = record
            changed.revision = stored.revision
            return try store.update(changed) == nil ? .conflict : .done(cookie: nil)
        } catch {
            return .failed(Self.unsaved)
        }
    }

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
        var headers = HTTPHeaders()
        headers.add("Location", configuration.basePath + path)
        headers.add("Cache-Control", "no-store")
        return HTTPResponse(status: .seeOther, headers: headers)
    }

    /// The session for this request (loaded or created).
    func visitor(_ state: inout RequestState) throws(HTTPError) -> Session {
        try state.visitor(store: store, cookieName: configuration.cookieName, now: now)
    }
}
