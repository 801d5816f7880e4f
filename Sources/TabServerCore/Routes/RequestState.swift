import HTTPTypes
import Sessions
import TabBar
import Web

/// What one request knows about its visitor, loaded on first use: the session (or a
/// new one), the controller snapshot, and what must be written back.
struct RequestState {
    let app: TabServerApp
    let request: HTTPRequest
    /// The shared model as it was when the request started.
    let model: ModelSnapshot
    var controller: TabBarController { model.controller }
    /// The session as loaded (nil until `visitor()` is called).
    private(set) var loaded: Session?
    /// The session as the handler leaves it.
    var session: Session?
    /// Whether the session was created by this request and is not stored yet: it is
    /// stored (and its cookie set) only if the request leaves something to remember
    /// (`Session.isDefault`). Until then its forms carry a signed token, not its own.
    private(set) var isNewSession = false
    /// A new session's own random token, which it gets when it is stored (and which
    /// pages rendered by that same request must carry).
    private(set) var ownToken: SessionID?
    /// Observer events of this attempt, delivered once the session write succeeds.
    var events: [HookEvent] = []
    /// Set when the visitor's arrangement or language changed: their other open pages
    /// are told to redraw the bar once the write succeeds.
    var arrangementChanged = false

    init(app: TabServerApp, request: HTTPRequest, model: ModelSnapshot) {
        self.app = app
        self.request = request
        self.model = model
    }

    /// The visitor's session, loaded or created once per request, with its tab bar state
    /// reconciled with the current model (tabs added or removed since the last visit).
    mutating func visitor(store: any SessionStore, cookieName: String, now: Int64) throws(HTTPError) -> Session {
        if let session { return session }
        var found: Session? = nil
        if let value = request.cookie(cookieName), let id = SessionID(cookieValue: value) {
            do {
                // Possibly a cached copy: `TabServerApp.commit` confirms it or writes it
                // with compare-and-set, and runs the request again if it was stale.
                found = try store.loadOptimistically(id, now: now)
            } catch {
                throw HTTPError.unavailable("Your settings cannot be loaded right now. Please try again in a moment.")
            }
        }
        var session: Session
        if let found {
            session = found
        } else {
            // Unknown, expired, forged or malformed: a fresh session, never the offered id.
            // Its pages carry the signed token of this hour; the session gets a token of
            // its own when it is stored (`TabServerApp.commit`).
            session = Session.new(now: now)
            session.csrfToken = app.formTokens.token(now: now)
            ownToken = .generate()
            isNewSession = true
        }
        loaded = session
        session.state = controller.reconciled(session.state)
        self.session = session
        return session
    }

    /// Sets the session as the handler leaves it and returns it as its page must show
    /// it: a new session that now holds something to remember will be stored by this
    /// request, so its forms carry its own token already, not the signed one.
    mutating func keep(_ session: Session) -> Session {
        var kept = session
        if isNewSession, let ownToken, let loaded {
            kept.csrfToken = kept.isDefault(for: controller) ? loaded.csrfToken : ownToken
        }
        self.session = kept
        return kept
    }

    /// Forgets the handler's changes (a failed request changes nothing).
    mutating func discardChanges() {
        events.removeAll()
        arrangementChanged = false
        guard var original = loaded else { return }
        original.state = controller.reconciled(original.state)
        session = original
    }
}
