// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerWeb

extension TabServerResponder {
    /// `POST /tabs/{tab}/{location*}`: a form of the app's own, posted to a location
    /// inside a tab, runs the action the content declares there. The form's CSRF token
    /// is checked first (the bar's token), a prefetch never runs one, an action that asks
    /// a question runs only once confirmed, and its result is answered with
    /// post/redirect/get: 303 to the place it names (remembered as the tab's place), with
    /// a one-shot notice; or 422 with the form again and nothing stored.
    func tabAction(_ tabID: String, location: String, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        let request = state.request
        if Self.isPrefetch(request) {
            throw HTTPError.forbidden("A prefetch does not run actions. Nothing was changed.")
        }
        try verifyCSRF(request, state: state, formOnly: false)
        let controller = state.controller
        let language = language(request, session)
        guard let tab = controller.model.tab(id: tabID) else {
            throw HTTPError.notFound(language.isolatedText("noSuchTab", ["tab": String(tabID.prefix(40))]))
        }
        var localized = tab
        localized.title = localizer.title(of: tab, in: language)
        guard tab.isEnabled else {
            throw HTTPError.forbidden(language.isolatedText("tabUnavailable", ["tab": localized.title]))
        }
        guard location.isEmpty || TabBarController.isValidLocation(location) else {
            throw HTTPError.notFound(language.isolatedText("noSuchPage", ["tab": localized.title]))
        }
        // Multipart posts are decoded again here for their files (the app's routes only
        // needed the text fields); other bodies stay for the action (`decodeJSON`).
        let form =
            request.mediaType?.essence == MediaType.multipartForm
            ? try request.decodeForm(limits: configuration.bodyLimits) : FormData(fields: request.formFields)
        let actionRequest = TabActionRequest(
            tab: localized, location: location.split(separator: "/"), request: request, form: form,
            language: language.code, user: state.user, basePath: configuration.basePath,
            visitorValues: session.appValues)
        guard let action = content.action(for: actionRequest) else {
            let pageRequest = TabPageRequest(
                tab: localized, location: actionRequest.location, basePath: configuration.basePath,
                language: language.code, user: state.user, visitorValues: session.appValues)
            if content.loader(for: pageRequest) != nil || content.page(for: pageRequest) != nil {
                throw HTTPError.methodNotAllowed(allowed: [.get, .head])
            }
            throw HTTPError.notFound(language.isolatedText("noSuchPage", ["tab": localized.title]))
        }
        if !actionRequest.isConfirmed, let question = action.confirmation?(actionRequest) {
            // Asked on a page of its own; nothing changes until the visitor confirms.
            state.discardChanges()
            let fields = request.formFields.filter { $0.name != "csrf" && $0.name != "confirmed" }
            return html(
                views.confirmationPage(
                    question: question, tab: localized, location: location,
                    cancelLocation: controller.location(ofTab: tab.id, in: session.state), fields: fields,
                    session: session, model: state.model, language: language))
        }
        let result: TabActionResult
        if let performed = state.contentResult?.action(tab: tab.id, location: actionRequest.location) {
            result = try performed.get()
        } else {
            switch action.work {
            case .now(let perform):
                do {
                    result = try perform(actionRequest)
                } catch {
                    throw reported(error)
                }
            case .later(let perform):
                guard state.contentResult == nil else { throw HTTPError.internalError() }
                // Performed off the engine; this request runs again with its result.
                state.contentWork = .action(perform, actionRequest)
                return HTTPResponse(status: .ok)
            }
        }
        switch result {
        case .redirect(let target, let notice, let values):
            guard target.isEmpty || TabBarController.isValidLocation(target) else {
                throw HTTPError.internalError("The action named a place that is not a page of this tab.")
            }
            let (visited, outcome) = controller.visit(tab.id, location: target, in: session.state)
            if case .selected = outcome { session.state = visited }
            if case .poppedToRoot = outcome { session.state = visited }
            session.notice = notice.map { Notice(message: $0) }
            if let values { session.appValues = values }
            state.session = session
            return redirect(to: Self.tabPath(tab.id, target))
        case .invalid(var page):
            // The form again, as sent, with its messages; nothing of this request is kept.
            state.discardChanges()
            page.cacheKey = nil
            let strip = page.hidesBottomBar ? nil : accessory(session, tab: localized, language: language, state: state)
            let body = views.tabPage(
                tab: localized, page: page, location: location, session: session, model: state.model, notice: nil,
                language: language, accessory: strip)
            return html(body, for: request, status: .unprocessableContent)
        }
    }
}
