// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb

extension TabServerResponder {
    /// The page the service worker shows offline (`GET /offline`).
    static func addOfflineRoutes(to router: Router<RequestContext>) {
        router.on(.get, "/offline", use: library { app, _, _, state throws(HTTPError) in try app.offlinePage(&state) })
    }

    /// `GET /offline`: the page the service worker keeps for pages it has not kept, with
    /// the visitor's bar. Fetched online (at install, and when the visitor's cache key
    /// changes) and shown offline; viewing it selects nothing and stores nothing.
    func offlinePage(_ state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        let session = try visitor(&state)
        let language = language(state.request, session)
        return html(
            pages.views.offlinePage(
                session: session, model: state.model, language: language, variant: pageVariant(state, language)))
    }
}
