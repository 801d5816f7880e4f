// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

/// `GET /offline`: the page the service worker shows for a page it has not kept.
enum OfflineRoutes: LibraryRoutes {
    /// The page the service worker shows offline (`GET /offline`).
    static func add(to router: Router<RequestContext>) {
        router.on(
            .get, "/offline",
            use: TabServerResponder.library { app, _, _, state throws(HTTPError) in try offlinePage(app, &state) })
    }

    /// `GET /offline`: the page the service worker keeps for pages it has not kept, with
    /// the visitor's bar. Fetched online (at install, and when the visitor's cache key
    /// changes) and shown offline; viewing it selects nothing and stores nothing.
    static func offlinePage(_ app: TabServerResponder, _ state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        let session = try app.visitor(&state)
        let language = app.language(state.request, session)
        return app.html(
            app.pages.views.offlinePage(
                session: session, model: state.model, language: language, variant: app.pages.variant(state, language)))
    }
}
