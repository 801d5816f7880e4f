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
    /// Whether the session was created by this request (its cookie must be set).
    private(set) var isNewSession = false
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
            session = Session.new(now: now)
            isNewSession = true
        }
        loaded = session
        session.state = controller.reconciled(session.state)
        self.session = session
        return session
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
