// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerWeb

/// `GET /events`: the live updates of an open page, as Server-Sent Events.
enum LiveEventRoutes: LibraryRoutes {
    /// Live updates for open pages (`GET /events`).
    static func add(to router: Router<RequestContext>) {
        router.on(
            .get, "/events",
            use: TabServerResponder.library { app, request, _, state throws(HTTPError) in
                try eventStream(app, request, state: &state)
            })
    }

    /// `GET /events`: this visitor's live updates as Server-Sent Events. A request without
    /// a session has nothing to follow (204, which tells `EventSource` not to retry), but in
    /// development mode, where every page follows the saved files, it gets a stream of its
    /// own; over a cap it is a 503 with `Retry-After`, which the page's script retries with
    /// backoff.
    static func eventStream(_ app: TabServerResponder, _ request: HTTPRequest, state: inout RequestState)
        throws(HTTPError) -> HTTPResponse
    {
        // The stored session as fetched before the route ran (off the loop if it waited).
        let stored = request.cookie(app.configuration.cookieName).flatMap(SessionID.init(cookieValue:)).flatMap { id in
            (try? state.storedSession(store: app.store, cookieName: app.configuration.cookieName, now: app.now)) ?? nil
                != nil
                ? id : nil
        }
        guard let id = stored ?? (app.configuration.developmentMode ? SessionID.generate() : nil) else {
            return HTTPResponse(status: .noContent, headers: HTTPHeaders([("Cache-Control", "no-store")]))
        }
        let lastEventID = request.headers["last-event-id"].flatMap { Int($0) }
        // A signed-in visitor also hears their user's events (an arrangement changed elsewhere).
        let user = state.user.map { SessionID.user($0) }
        guard let stream = app.events.subscribe(session: id, user: user, lastEventID: lastEventID) else {
            var refused = HTTPResponse.text("Too many live streams; retrying later.\n", status: .serviceUnavailable)
            refused.headers.add("Retry-After", "10")
            return refused
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/event-stream; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        headers.add("X-Content-Type-Options", "nosniff")
        // nginx: send each event as it is written, not when a buffer fills.
        headers.add("X-Accel-Buffering", "no")
        return HTTPResponse(status: .ok, headers: headers, body: .stream(stream))
    }
}
