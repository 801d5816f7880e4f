import HTTPTypes
import Sessions
import TabBar
import Web

extension TabServerApp {
    /// Every route of the app. Paths are below the base path.
    static func makeRouter() -> Router<RequestState> {
        var router = Router<RequestState>()
        router.get("/healthz") { _, _, _ in HTTPResponse.text("ok\n") }
        router.get("/readyz") { _, _, state in
            state.app.store.checkReady()
                ? HTTPResponse.text("ready\n")
                : HTTPResponse.text("session store unavailable\n", status: .serviceUnavailable)
        }
        router.get("/") { _, _, state throws(HTTPError) in try state.app.home(&state) }
        router.get("/tabs/{tab}") { _, parameters, state throws(HTTPError) in
            try state.app.tabPage(parameters["tab"]!, location: "", state: &state)
        }
        router.get("/tabs/{tab}/{location*}") { _, parameters, state throws(HTTPError) in
            try state.app.tabPage(parameters["tab"]!, location: parameters["location"]!, state: &state)
        }
        router.post("/select") { request, _, state throws(HTTPError) in try state.app.select(request, state: &state) }
        router.get("/more") { _, _, state throws(HTTPError) in try state.app.morePage(&state) }
        router.get("/more/edit") { _, _, state throws(HTTPError) in try state.app.customizePage(&state) }
        router.post("/more/edit") { request, _, state throws(HTTPError) in
            try state.app.customize(request, state: &state)
        }
        router.get("/events") { request, _, state throws(HTTPError) in
            try state.app.eventStream(request, state: &state)
        }
        router.post("/language") { request, _, state throws(HTTPError) in
            try state.app.chooseLanguage(request, state: &state)
        }
        return router
    }

    /// The canonical URL path of a location in a tab (below the base path).
    static func tabPath(_ tabID: String, _ location: String) -> String {
        location.isEmpty ? "/tabs/\(tabID)" : "/tabs/\(tabID)/\(location)"
    }

    /// `GET /`: back to where the visitor was (UIKit's state restoration).
    func home(_ state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        let session = try visitor(&state)
        let target = state.controller.restorationTarget(session.state)
        return redirect(to: Self.tabPath(target.tabID, target.location))
    }

    /// `GET /tabs/{tab}/{location*}`: a page of a tab. Visiting marks the tab selected and
    /// remembers the location, so selecting the tab later comes back here.
    func tabPage(_ tabID: String, location: String, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        let controller = state.controller
        guard let tab = controller.model.tab(id: tabID) else {
            throw HTTPError.notFound("There is no tab called “\(tabID.prefix(40))”.")
        }
        let language = language(state.request, session)
        var localized = tab
        localized.title = localizer.title(of: tab, in: language)
        guard location.isEmpty || TabBarController.isValidLocation(location),
            let page = content.page(
                for: TabPageRequest(
                    tab: localized, location: location.split(separator: "/"), basePath: configuration.basePath,
                    query: state.request.query, language: language.code, user: state.user))
        else {
            throw HTTPError.notFound("There is no such page in \(tab.title).")
        }
        let (visited, outcome) = controller.visit(tab.id, location: location, in: session.state)
        switch outcome {
        case .selected, .poppedToRoot:
            session.state = visited
        case .disabled:
            throw HTTPError.forbidden("The \(tab.title) tab is not available right now.")
        case .unknownTab, .vetoed:
            throw HTTPError.notFound("There is no tab called “\(tabID.prefix(40))”.")
        }
        let notice = session.notice
        session.notice = nil
        session = state.keep(session)
        let body = views.tabPage(
            tab: localized, page: page, location: location, session: session, model: state.model, notice: notice,
            language: language)
        return html(body)
    }

    /// `POST /select`: a tap on a bar item (or a row of More). 303 to the tab's
    /// remembered location, to its root on a re-tap, or back with a notice if refused.
    func select(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        try verifyCSRF(request, state: state)
        let tabID = try request.requiredField("tab")
        var controller = state.controller
        guard let tab = controller.model.tab(id: tabID) else {
            throw HTTPError.badRequest("There is no tab called “\(tabID.prefix(40))”.", field: "tab")
        }
        let verdict =
            tab.isEnabled
            ? AppHooks.$user.withValue(state.user) {
                appHooks.shouldSelect(tab, session.state, request.formValue("confirmed") == "1")
            } : .allow
        controller.hooks = appHooks.tabBarHooks(verdict: verdict)
        let (selected, outcome) = controller.select(tab.id, in: session.state)
        switch outcome {
        case .selected(let id, let location):
            session.state = selected
            session.notice = nil
            state.session = session
            state.events.append(.didSelect(tab, selected))
            return redirect(to: Self.tabPath(id, location))
        case .poppedToRoot(let id):
            session.state = selected
            session.notice = nil
            state.session = session
            state.events.append(.didSelect(tab, selected))
            return redirect(to: Self.tabPath(id, ""))
        case .vetoed(let message):
            let confirm: String? = if case .askConfirmation = verdict { tab.id } else { nil }
            session.notice = Notice(message: message, confirmTabID: confirm)
        case .disabled:
            session.notice = Notice(message: "The \(tab.title) tab is not available right now.")
        case .unknownTab:
            throw HTTPError.badRequest("There is no tab called “\(tabID.prefix(40))”.", field: "tab")
        }
        // Refused: nothing about the tabs changes; back to where the visitor was, with the message.
        state.session = session
        let back = controller.restorationTarget(session.state)
        return redirect(to: Self.tabPath(back.tabID, back.location))
    }

    /// Refuses a form post that did not come from a page of this session, or, for a
    /// visitor with no stored session, from a page this deployment made within the idle
    /// timeout (a signed token: see `FormTokenSigner`).
    func verifyCSRF(_ request: HTTPRequest, state: RequestState) throws(HTTPError) {
        if request.headers["sec-fetch-site"]?.lowercased() == "cross-site" {
            throw HTTPError.forbidden("This form was sent from another site, so it was not accepted.")
        }
        let isValid: Bool
        if let token = request.formValue("csrf"), let presented = SessionID(cookieValue: token),
            let session = state.loaded
        {
            isValid =
                state.isNewSession
                ? formTokens.isValid(
                    presented, now: now, maxAge: Int64(configuration.sessionIdleTimeout.components.seconds))
                : presented.constantTimeEquals(session.csrfToken)
        } else {
            isValid = false
        }
        guard isValid else {
            throw HTTPError.forbidden(
                "This form has expired or did not come from this site, so it was not accepted. Nothing was changed.")
        }
    }

    func html(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", "no-store")
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Referrer-Policy", "same-origin")
        headers.add("X-Frame-Options", "DENY")
        // Inline style attributes carry the appearance and icon URLs; no inline script.
        headers.add(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        )
        return HTTPResponse(status: status, headers: headers, body: .bytes(body))
    }
}
