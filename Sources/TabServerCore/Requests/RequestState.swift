// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

/// What one request knows about its visitor, loaded on first use: the session (or a
/// new one), the controller snapshot, and what must be written back. What may wait on the
/// store (the stored session, a signed-in user's record) is fetched before the handler
/// runs (`fetch`), off the engine loop when the store would wait; the rest is computed
/// from it on first use.
struct RequestState: Sendable {
    let app: TabServerResponder
    /// The request being answered: the one received, or the page a script's post asked
    /// for instead of a redirect (`follow(_:)`).
    private(set) var request: HTTPRequest
    /// The shared model as it was when the request started.
    let model: ModelSnapshot
    /// The model's controller, lent in place: a plain getter copied the whole controller
    /// (a dozen references) for each call through it.
    var controller: TabBarController { _read { yield model.controller } }
    /// Where the visitor's session comes from: nothing yet, until `visitor()` is called.
    private(set) var origin = Origin.unknown
    /// The session as loaded or created, once `visitor()` ran (read it as `loaded`).
    private(set) var loadedSession: Session?
    /// The session as the handler leaves it.
    var session: Session?
    /// Observer events of this attempt, delivered once the session write succeeds.
    var events: [HookEvent] = []

    /// Records an observer event, if the app observes any (see `AppHooks.observes`).
    mutating func record(_ event: @autoclosure () -> HookEvent) {
        if app.hooks.app.observes { events.append(event()) }
    }
    /// Set when the visitor's arrangement or language changed: their other open pages
    /// are told to redraw the bar once the write succeeds.
    var arrangementChanged = false
    /// The signed-in user a trusted proxy named (nil: anonymous). Their arrangement,
    /// language and badge overrides come from their record, not the browser session.
    let user: String?
    /// The browser session as stored, holding its own (anonymous) choices, which signing
    /// in leaves unchanged (only set when `user` is).
    private(set) var storedBrowser: Session?
    /// The user's record as loaded (nil: none stored yet).
    private(set) var storedUser: Session?
    /// The user's record this request starts from: as loaded, or new, with the browser's
    /// own choices merged in on its first signed-in request.
    private(set) var userRecord: Session?
    /// Whether the page cache was asked for this request's answer before it ran, and had
    /// none (see `TabServerResponder.cachedPage`): the handler need not ask again.
    var pageCacheAsked = false
    /// The page this request rendered for the revision its write makes (see
    /// `PageAnswerCache.Pending`), kept once that write is durable.
    var pageAfterWrite: PageAnswerCache.Pending?
    /// The engine's prepared form of the answer, when it is a finished page from the
    /// cache (see `PageAnswerCache.Entry.prepared`).
    var prepared: ResponseCache?
    /// Why the session could not be loaded, once a load failed: every later ask fails the
    /// same way without going to the store again.
    var loadFailure: HTTPError?
    /// The session cookie's value, once read (`.done(nil)`: none).
    private var cookieValue = Lookup<String>.notYet
    /// The session as loaded by `storedSession` (`.done(nil)`: none stored).
    private var fetched = Lookup<Session>.notYet
    /// The user's record as `fetch` loaded it (`.done(nil)`: none stored yet).
    private var fetchedUser = Lookup<Session>.notYet

    init(app: TabServerResponder, request: HTTPRequest, model: ModelSnapshot, user: String? = nil) {
        self.app = app
        self.request = request
        self.model = model
        self.user = user
    }

    /// The visitor's session, loaded or created once per request, with its tab bar state
    /// reconciled with the current model (tabs added or removed since the last visit).
    mutating func visitor(store: any EngineSessionStore, cookieName: String, now: Int64) throws(HTTPError) -> Session {
        if let session { return session }
        var session: Session
        // Whether the cookie named a stored session: a flag, so that the optional it came
        // in is not kept beside the copy taken from it.
        let isStored: Bool
        if let found = try storedSession(store: store, cookieName: cookieName, now: now) {
            session = found
            isStored = true
        } else {
            isStored = false
            // Unknown, expired, forged or malformed: a fresh session, never the offered id.
            // Its pages carry the signed token of this hour (a signed-in user's, their own);
            // the session gets a token of its own when it is stored
            // (`TabServerResponder.commit`).
            session = Session.new(now: now)
            session.csrfToken =
                user.map { app.visitors.formTokens.token(now: now, user: $0) }
                ?? app.visitors.formTokens.token(now: now)
        }
        if let user { session = try signIn(user, browser: session, store: store, now: now) }
        if isStored {
            (origin, loadedSession) = (.stored, session)
        } else if let budget = app.visitors.newSessions, !budget.allows(clientKey) {
            (origin, loadedSession) = (.new(ownToken: nil), session)
        } else {
            (origin, loadedSession) = (.new(ownToken: .generate()), session)
        }
        session.state = controller.reconciled(session.state)
        self.session = session
        return session
    }

    /// The browser session the cookie names, as stored (not reconciled with the model),
    /// loaded once per request; nil without a cookie, or for an unknown, expired or
    /// malformed one.
    mutating func storedSession(store: any EngineSessionStore, cookieName: String, now: Int64) throws(HTTPError)
        -> Session?
    {
        if case .done(let fetched) = fetched { return fetched }
        if let loadFailure { throw loadFailure }
        var found: Session? = nil
        if let value = cookie(cookieName), let id = SessionID(cookieValue: value) {
            do {
                // Possibly a cached copy: `TabServerResponder.commit` confirms it or writes it
                // with compare-and-set, and runs the request again if it was stale.
                // A signed-in visitor's pages combine two records; both are read fresh so
                // a page never pairs a cached browser part with the user's newer one.
                found = try user == nil ? store.loadOptimistically(id, now: now) : store.load(id, now: now)
            } catch {
                loadFailure = Self.unavailable
                throw Self.unavailable
            }
        }
        if found?.isUserRecord == true { found = nil }
        fetched = .done(found)
        return found
    }

    /// Whom this request's new session is counted against: the client address (the one a
    /// trusted proxy reports), an IPv6 /64.
    var clientKey: ClientKey { ClientKey(address: app.configuration.trustedProxies.origin(of: request).client) }

    /// The raw value of the session cookie, read from the head once per request.
    mutating func cookie(_ name: String) -> String? {
        if case .done(let value) = cookieValue { return value }
        let value = request.cookie(name)
        cookieValue = .done(value)
        return value
    }

    /// The session cookie's value as the caller read it from this request's head already
    /// (`HTTPRequest.cookie` with the configured name), so `cookie` need not read it again.
    mutating func knowCookie(_ value: String?) {
        cookieValue = .done(value)
    }

    /// Takes `stored` (this request's `storedSession`) as the session the answer rests on,
    /// unchanged: a cached page of it answers, and the commit only confirms it is current.
    mutating func answersFromCache(_ stored: Session) {
        (origin, loadedSession) = (.stored, stored)
        session = stored
    }

    /// What a load that failed answers.
    static let unavailable = HTTPError.unavailable(
        "Your settings cannot be loaded right now. Please try again in a moment.")

    /// The signed-in user's record as stored (nil: none yet), fetched once per request.
    private mutating func userRecord(_ user: String, store: any EngineSessionStore, now: Int64) throws(HTTPError)
        -> Session?
    {
        if case .done(let record) = fetchedUser { return record }
        if let loadFailure { throw loadFailure }
        do {
            // Read fresh, not from an instance's cache: another device may have changed it
            // through another instance, and this page must show that arrangement.
            let record = try store.load(.user(user), now: now).flatMap { $0.isUserRecord ? $0 : nil }
            fetchedUser = .done(record)
            return record
        } catch {
            loadFailure = Self.unavailable
            throw Self.unavailable
        }
    }

    /// Loads what the request's visitor needs of the store, once: the session the cookie
    /// names and the signed-in user's record. A failure is kept (`loadFailure`) for the
    /// handler to answer. Called before the handler runs, on the blocking pool when the
    /// store would wait.
    mutating func fetch(store: any EngineSessionStore, cookieName: String, now: Int64) {
        _ = try? storedSession(store: store, cookieName: cookieName, now: now)
        if let user { _ = try? userRecord(user, store: store, now: now) }
    }

    /// The browser session with the user's choices in place of its own: the user's record
    /// is loaded (or started), and on the browser's first signed-in request its own
    /// choices are merged in (the user's win where they have any).
    private mutating func signIn(_ user: String, browser: Session, store: any EngineSessionStore, now: Int64)
        throws(HTTPError) -> Session
    {
        storedBrowser = browser
        storedUser = try userRecord(user, store: store, now: now)
        var record = storedUser ?? .userRecord(user, now: now)
        if browser.mergedUser != SessionID.user(user), browser.hasOwnChoices {
            for choice in Session.userChoices { choice.merge(browser, &record) }
        }
        userRecord = record
        var session = browser
        for choice in Session.userChoices { choice.show(record, &session) }
        return session
    }

    /// What of `session` belongs to the browser: everything when anonymous; when signed
    /// in, all but the user's choices, where the browser keeps its own unchanged.
    func browserPart(of session: Session) -> Session {
        guard user != nil, let storedBrowser else { return session }
        var part = session
        for choice in Session.userChoices { choice.keep(storedBrowser, &part) }
        // Whatever the browser chooses from now on while signed out (or the app sets for it)
        // stays its own: it merges into this user only on its first signed-in request.
        part.mergedUser = userRecord?.id ?? part.mergedUser
        return part
    }

    /// The user's record as `session` leaves it (nil when anonymous). `mutating` only to
    /// be called in place: called on the state a `VisitorHandle` holds from an async
    /// function, a plain method had the whole state (two kilobytes) copied into that
    /// function's frame first.
    mutating func userPart(of session: Session) -> Session? {
        guard var record = userRecord else { return nil }
        for choice in Session.userChoices { choice.record(session, loaded, &record) }
        return record
    }

    /// Sets the session as the handler leaves it and returns it as its page must show
    /// it: a new session that now holds something to remember will be stored by this
    /// request, so its forms carry its own token already, not the signed one.
    mutating func keep(_ session: Session) -> Session {
        var kept = session
        if case .new(let ownToken?) = origin {
            kept.csrfToken =
                browserPart(of: kept).isDefault(for: controller) ? loadedSession?.csrfToken ?? ownToken : ownToken
        }
        self.session = kept
        return kept
    }

    /// Goes on with `request`, a GET of the page a post's 303 names, with the session as
    /// the post left it: the page shows the post's change, and the one commit at the end
    /// writes both (see `TabServerResponder.followedPage`).
    mutating func follow(_ request: HTTPRequest) {
        self.request = request
        followsPost = true
    }

    /// Whether this request is a post's page (`follow(_:)`): its page shows what the post
    /// changed and is not written yet, so it never comes from or goes into the page cache.
    private(set) var followsPost = false

    /// Whether nothing has been loaded, created or changed since `init` (the cookie's value
    /// aside: it is the request's own). A field added above that a request can change must
    /// be checked here too. `mutating` only to be called in place, and each optional is
    /// matched, not compared with nil: either way the state or a session was copied first.
    mutating func isUntouched() -> Bool {
        guard case .unknown = origin, case .none = loadedSession, case .none = session, events.isEmpty,
            !arrangementChanged, case .none = storedBrowser, case .none = storedUser, case .none = userRecord,
            !pageCacheAsked, case .none = pageAfterWrite, case .none = prepared, case .none = loadFailure,
            !followsPost, case .notYet = fetched, case .notYet = fetchedUser
        else { return false }
        return true
    }

    /// Whether the request's first attempt, with session cookie `cookie`, may go on from
    /// this state (`restart(with:)`): when nothing has touched it, or when what touched it
    /// (the app's middleware, before the visitor's lock was taken) made an anonymous visitor
    /// a new session, read nothing stored, and left the cookie as it was. A stored session
    /// or a user's record read before the lock may be stale by the time the lock is held:
    /// the attempt reads it again.
    mutating func mayGoOnForFirstAttempt(cookie: String?, cookieName: String) -> Bool {
        if isUntouched() { return true }
        guard user == nil, case .new = origin, case .none = loadFailure else { return false }
        return self.cookie(cookieName) == cookie
    }

    /// Goes on with `request` (the same request, its form decoded) from this state (one
    /// `mayGoOnForFirstAttempt` holds for): what `init` with it would make when nothing has
    /// touched it, else the new session as the app's middleware left it.
    mutating func restart(with request: HTTPRequest) {
        self.request = request
        cookieValue = .notYet
    }

    /// Forgets the handler's changes (a failed request changes nothing).
    mutating func discardChanges() {
        events.removeAll()
        prepared = nil
        pageAfterWrite = nil
        arrangementChanged = false
        guard var original = loaded else { return }
        original.state = controller.reconciled(original.state)
        session = original
    }
}
