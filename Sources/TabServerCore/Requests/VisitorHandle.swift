// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerViews
import TabServerWeb

/// The visitor of one request, shared by the copies of its `RequestContext` (middleware
/// hands the context on by value): the request's state (`RequestState`: the session as
/// loaded and as the handlers leave it, what to write back) and the app.
///
/// `@unchecked Sendable` is safe: one request's task uses it, from its first step to its
/// commit; a task runs one piece at a time, so `state` is never touched by two threads at
/// once, and nothing keeps the handle once the request is answered. For the same reason
/// its properties skip the runtime's exclusivity check (`@exclusivity(unchecked)`): no
/// change to `state` is under way across an `await`, and what changes it in place (the
/// session's load, a page's visit) reaches no handle. (What the unchecked properties
/// save: see `Connection`.)
final class VisitorHandle: @unchecked Sendable {
    let app: TabServerResponder
    @exclusivity(unchecked) var state: RequestState
    let origin: RequestOrigin
    /// The engine's prepared form of the answer, when the route's answer has one (a page
    /// from the cache) and no middleware of the app's may have changed the response.
    @exclusivity(unchecked) var prepared: ResponseCache?
    /// The route label it counts under in the metrics, once the router has matched.
    @exclusivity(unchecked) var route: Int?
    /// Whether an attempt has begun: what the app's middleware stores before that, it
    /// stores for every attempt (`outerValues`).
    @exclusivity(unchecked) private var attempting = false
    /// The visitor values the app's middleware stored before the router ran, in order
    /// (JSON text; nil removes), to store again if the request starts anew.
    @exclusivity(unchecked) private var outerValues: [(key: String, value: String?)] = []
    /// Whether the state was started anew with `outerValues` to store again.
    @exclusivity(unchecked) private var replayPending = false

    init(app: TabServerResponder, state: RequestState, origin: RequestOrigin) {
        self.app = app
        self.state = state
        self.origin = origin
    }

    /// A handle whose state starts from `request` (the signed-in `user`'s, if any).
    convenience init(app: TabServerResponder, request: HTTPRequest, user: String?, origin: RequestOrigin) {
        self.init(
            app: app, state: RequestState(app: app, request: request, model: app.tabs.current, user: user),
            origin: origin)
    }

    /// Starts an attempt of the request: its state from `request`, on the current model,
    /// with the cookie it came with and whether the page cache was asked already.
    ///
    /// The first attempt goes on from the state the request began with, on the same
    /// model, when nothing touched it (building one anew would repeat work the request has
    /// done already) or the app's middleware only made a new visitor a session. Otherwise
    /// (a stored session the middleware read before the visitor's lock was taken; a later
    /// attempt, after another instance changed the session) it starts anew from the store,
    /// and what the middleware stored is stored again on top (`replayOuterValues()` once
    /// the session is fetched).
    func beginAttempt(_ request: HTTPRequest, cookie: String?, pageCacheAsked: Bool, first: Bool) {
        let model = app.tabs.current
        // Not when an attempt ran before: a step that calls `next` again gets a fresh one.
        let goesOn =
            first && !attempting && state.model === model
            && state.mayGoOnForFirstAttempt(cookie: cookie, cookieName: app.configuration.cookieName)
        attempting = true
        if goesOn {
            state.restart(with: request)
        } else {
            state = RequestState(app: app, request: request, model: model, user: state.user)
            replayPending = !outerValues.isEmpty
        }
        state.knowCookie(cookie)
        state.pageCacheAsked = pageCacheAsked
        prepared = nil
    }

    /// Whether the app's middleware stored a visitor value before the router ran: the
    /// request's answer must then come from its own commit, not from the page cache.
    var storedOuterValues: Bool { !outerValues.isEmpty }

    /// Stores again what the app's middleware stored before the router ran, on the state
    /// an attempt started anew (see `beginAttempt`); nothing to do otherwise.
    func replayOuterValues() {
        guard replayPending else { return }
        replayPending = false
        for (key, value) in outerValues { store(value, key: key) }
    }

    /// A copy of the request's state as it is now, for `restore(_:)`.
    func snapshot() -> StateSnapshot { StateSnapshot(state) }

    /// Puts back the state `snapshot` copied.
    func restore(_ snapshot: StateSnapshot) { state = snapshot.state }

    /// A request's state kept aside (`snapshot()`), by reference.
    final class StateSnapshot: Sendable {
        let state: RequestState
        init(_ state: RequestState) { self.state = state }
    }

    /// The visitor's session (loaded or created on first use); nil when the store cannot
    /// be read now.
    var session: Session? { try? app.visitor(&state) }

    /// The visitor's language.
    var language: Language { app.language(state.request, session) }

    /// The token the visitor's forms carry.
    var csrfToken: String { session?.csrfToken.text ?? "" }

    func value<Value: VisitorValue>(_ type: Value.Type) -> Value? {
        guard let session else { return nil }
        return VisitorValueCoding.decode(type, from: session.appValues)
    }

    func setValue<Value: VisitorValue>(_ value: Value?, key: String) {
        let encoded = value.flatMap(VisitorValueCoding.encode)
        if !attempting { outerValues.append((key, encoded)) }
        store(encoded, key: key)
    }

    /// Sets the visitor value `key` to `encoded` (nil removes it) in the session the
    /// request will commit.
    private func store(_ encoded: String?, key: String) {
        guard var session else { return }
        session.appValues[key] = encoded
        session = state.keep(session)
        _ = session
    }
}
