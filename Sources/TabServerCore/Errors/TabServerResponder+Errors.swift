// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerWeb

extension TabServerResponder {
    /// Renders any failure as a page with its status. Pages for the visitor keep the tab
    /// bar (a 404 is still inside the app); when the session itself is the problem
    /// (`withSession: false`), the page has no bar and no cookie is touched.
    /// Handlers throw only `HTTPError`: model and store errors are mapped where they
    /// happen (`HTTPError+Domain`), so there is nothing else to translate here.
    func errorPage(_ failure: HTTPError, state: inout RequestState, withSession: Bool = true) -> HTTPResponse {
        var session: Session? = nil
        if withSession && failure.status != .serviceUnavailable {
            session = try? visitor(&state)
        }
        var response = html(
            views.errorPage(
                failure, session: session, model: state.model, language: language(state.request, session)),
            status: failure.status)
        for field in failure.headers { response.headers.add(field.name, field.value) }
        return response
    }
}
