// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
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
    nonisolated(nonsending) func tabAction(
        _ tabID: String, location: String, request: HTTPRequest, context: RequestContext
    ) async throws
        -> HTTPResponse
    {
        let action: TabAction
        let actionContext: RequestContext
        let localized: Tab
        switch try actionToRun(tabID, location: location, request: request, context: context) {
        case .answered(let response):
            return response
        case .run(let found, let foundContext, let tab):
            (action, actionContext, localized) = (found, foundContext, tab)
        }
        let result: TabActionResult
        do {
            result = try await action.perform(request, actionContext)
        } catch let error as FieldError {
            return try await refusedForm(
                [error], tab: localized, location: location, request: request, context: actionContext)
        } catch let error as RequestDecodingError {
            return try await refusedForm(
                error.fieldErrors, tab: localized, location: location, request: request, context: actionContext)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            throw reported(error)
        }
        return try actionAnswer(result, tab: localized, location: location, handle: context.visitor)
    }

    /// What a post to a tab's location starts with.
    private enum ActionStart {
        /// Answered before any action runs (a question asked on a page of its own).
        case answered(HTTPResponse)
        /// The action to run, with its context and its tab (its title in the visitor's
        /// language).
        case run(TabAction, RequestContext, Tab)
    }

    /// The checks before the action (the token, a prefetch, the tab, the location) and the
    /// action the content declares there; its question's page when it asks one first.
    private func actionToRun(
        _ tabID: String, location: String, request: HTTPRequest, context: RequestContext
    ) throws -> ActionStart {
        let handle = context.visitor
        let session = try visitor(&handle.state)
        if Self.isPrefetch(request) {
            throw HTTPError.forbidden("A prefetch does not run actions. Nothing was changed.")
        }
        try verifyCSRF(request, state: handle.state, formOnly: false)
        let controller = handle.state.controller
        let language = language(request, session)
        guard let tab = controller.model.tab(id: tabID) else {
            throw HTTPError.notFound(language.isolatedText("noSuchTab", ["tab": String(tabID.prefix(40))]))
        }
        var localized = tab
        localized.title = pages.localizer.title(of: tab, in: language)
        guard tab.isEnabled else {
            throw HTTPError.forbidden(language.isolatedText("tabUnavailable", ["tab": localized.title]))
        }
        guard location.isEmpty || TabBarController.isValidLocation(location) else {
            throw HTTPError.notFound(language.isolatedText("noSuchPage", ["tab": localized.title]))
        }
        // Multipart posts are decoded again here for their files (the routes only needed
        // the text fields); other bodies stay for the action (`request.decode(as:)`).
        let form =
            request.mediaType?.essence == MediaType.multipartForm
            ? try request.decodeForm(limits: configuration.bodyLimits) : FormData(fields: request.formFields)
        var actionContext = context.entering(
            localized, location: location.split(separator: "/"), form: form.withoutLibraryFields,
            isConfirmed: form.value("confirmed") == "1")
        guard let (action, parameters) = content.action(for: actionContext) else {
            if content.hasPage(for: actionContext) { throw HTTPError.methodNotAllowed(allowed: [.get, .head]) }
            throw HTTPError.notFound(language.isolatedText("noSuchPage", ["tab": localized.title]))
        }
        actionContext.parameters = parameters
        if !actionContext.isConfirmed, let question = action.confirmation?(request, actionContext) {
            // Asked on a page of its own; nothing changes until the visitor confirms.
            handle.state.discardChanges()
            let fields = request.formFields.filter { $0.name != "csrf" && $0.name != "confirmed" }
            return .answered(
                html(
                    pages.views.confirmationPage(
                        question: question, tab: localized, location: location,
                        cancelLocation: controller.location(ofTab: tab.id, in: session.state), fields: fields,
                        session: session, model: handle.state.model, language: language,
                        variant: pages.variant(handle.state, language))))
        }
        return .run(action, actionContext, localized)
    }

    /// The answer to what the action did: 303 to the place it names, or its page again
    /// with 422.
    private func actionAnswer(_ result: TabActionResult, tab: Tab, location: String, handle: VisitorHandle) throws
        -> HTTPResponse
    {
        // The state as the action left it (a value it set).
        var session = try visitor(&handle.state)
        let controller = handle.state.controller
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
            handle.state.session = session
            return redirect(to: TabPaths.tab(tab.id, target))
        case .invalid(var page):
            // The form again, as sent, with its messages; nothing of this request is kept.
            handle.state.discardChanges()
            page.cacheKey = nil
            return invalidPage(page, tab: tab, location: location, session: session, state: &handle.state)
        }
    }

    /// The tab's page at the action's location shown again for a refused form (422): its
    /// handler makes it with `context.submission` (the fields sent, what is wrong), so a
    /// `TabForm` shows both; nothing of the request is stored.
    private nonisolated(nonsending) func refusedForm(
        _ errors: [FieldError], tab: Tab, location: String, request: HTTPRequest, context: RequestContext
    ) async throws -> HTTPResponse {
        let handle = context.visitor
        handle.state.discardChanges()
        var pageContext = context.showing(FormSubmission(fields: context.form.fields, errors: errors))
        pageContext.parameters = RouteParameters()
        var page = HTTPRequest(
            method: .get, path: request.path, query: request.query, headers: request.headers,
            remoteAddress: request.remoteAddress, version: request.version)
        page.headers.remove("content-type")
        guard var shown = try await content.page(for: page, context: pageContext) else {
            // No page to show the form on: the fields at fault, as an error page.
            throw RequestDecodingError(errors)
        }
        handle.state.discardChanges()
        shown.cacheKey = nil
        let session = try visitor(&handle.state)
        return invalidPage(shown, tab: tab, location: location, session: session, state: &handle.state)
    }

    /// `page` with 422 Unprocessable Content (the form again, with its messages).
    private func invalidPage(_ page: TabPage, tab: Tab, location: String, session: Session, state: inout RequestState)
        -> HTTPResponse
    {
        let language = language(state.request, session)
        let strip =
            page.hidesBottomBar ? nil : AccessoryRoutes.strip(self, session, tab: tab, language: language, state: state)
        let body = pages.views.tabPage(
            tab: tab, page: page, location: location, session: session, model: state.model, notice: nil,
            language: language, variant: pages.variant(state, language), accessory: strip)
        return html(body, for: state.request, status: .unprocessableContent)
    }
}
