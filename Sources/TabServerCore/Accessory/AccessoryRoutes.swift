// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

/// The strip above the tab bar (`TabAccessory`): what a page shows of it, and its
/// actions' posts (`POST /accessory/{action}`).
enum AccessoryRoutes: LibraryRoutes {
    /// The bottom accessory's forms (`POST /accessory/{action}`).
    static func add(to router: Router<RequestContext>) {
        router.on(
            .post, "/accessory/{action}", crossSite: .checkedByHandler,
            use: TabServerResponder.library { app, request, parameters, state throws(HTTPError) in
                try action(app, try parameters.require("action"), request, state: &state)
            })
    }

    /// The bottom accessory for a page of `tab` (the selected tab when nil), if the content
    /// gives one.
    static func strip(
        _ app: TabServerResponder, _ session: Session, tab: Tab? = nil, language: Language, state: RequestState
    ) -> TabAccessory? {
        let controller = state.controller
        guard var selected = tab ?? controller.model.tab(id: controller.selectedTabID(session.state)) else {
            return nil
        }
        selected.title = app.pages.localizer.title(of: selected, in: language)
        return app.content.accessory(
            for: TabAccessoryRequest(
                selectedTab: selected, language: language.code, user: state.user, basePath: app.configuration.basePath,
                visitorValues: session.appValues))
    }

    /// `POST /accessory/{action}`: a form of the bottom accessory (`TabAccessory.actions`):
    /// the CSRF token is checked, the action runs with the visitor's values and its result
    /// is stored with the session; 303 back to the page the form was on. No accessory or
    /// no such action: 404; a prefetch never runs one.
    static func action(
        _ app: TabServerResponder, _ name: String, _ request: HTTPRequest, state: inout RequestState
    ) throws(HTTPError)
        -> HTTPResponse
    {
        var session = try app.visitor(&state)
        if TabServerResponder.isPrefetch(request) {
            throw HTTPError.forbidden("A prefetch does not run actions. Nothing was changed.")
        }
        try app.verifyCSRF(request, state: state)
        let controller = state.controller
        let language = app.language(request, session)
        guard let shown = strip(app, session, language: language, state: state) else {
            throw HTTPError.notFound("There is nothing above the tab bar to act on right now. Nothing was changed.")
        }
        guard let action = shown.actions[name] else {
            throw HTTPError.notFound(
                "The strip above the tab bar has no action “\(name.prefix(40))”. Nothing was changed.")
        }
        let controllerTab = controller.model.tab(id: controller.selectedTabID(session.state))
        guard var selected = controllerTab else { throw HTTPError.internalError() }
        selected.title = app.pages.localizer.title(of: selected, in: language)
        let form = FormData(fields: request.formFields.filter { $0.name != "csrf" && $0.name != "return" })
        let actionRequest = TabAccessoryRequest(
            selectedTab: selected, language: language.code, user: state.user, basePath: app.configuration.basePath,
            visitorValues: session.appValues, form: form)
        let values: [String: String]?
        do {
            values = try action(actionRequest)
        } catch {
            throw app.reported(error)
        }
        if let values { session.appValues = values }
        state.session = session
        let back = request.formValue("return").flatMap(TabServerResponder.returnPath)
        return app.redirect(to: back ?? TabServerResponder.restorationPath(controller, session.state))
    }
}
