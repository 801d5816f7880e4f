// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerWeb

extension TabServerResponder {
    /// `POST /select`: a tap on a bar item or a row of More.
    static func addSelectionRoutes(to router: Router<RequestContext>) {
        router.on(
            .post, "/select", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.select(request, state: &state)
            })
    }

    /// `POST /select`: a tap on a bar item (or a row of More). 303 to the tab's
    /// remembered location, to its root on a re-tap, or back with a notice if refused.
    func select(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        try verifyCSRF(request, state: state)
        let tabID = try request.requiredField("tab")
        var controller = state.controller
        let language = language(request, session)
        guard let tab = controller.model.tab(id: tabID) else {
            if controller.model.group(id: tabID) != nil { return try openGroup(tabID, request, state: &state) }
            throw HTTPError.badRequest(
                language.isolatedText("noSuchTab", ["tab": String(tabID.prefix(40))]), field: "tab")
        }
        // The page the tap happened on (the bar's or More's hidden field), if it is one of ours.
        let returnPath = request.formValue("return").flatMap(Self.returnPath)
        let verdict =
            tab.isEnabled && hooks.app.vetoes
            ? AppHooks.$user.withValue(state.user) {
                hooks.app.shouldSelect(tab, session.state, request.formValue("confirmed") == "1")
            } : .allow
        let fromList =
            returnPath == "/more"
            || returnPath.map { $0 == TabPaths.tab(controller.model.declaredGroupID(ofTab: tab.id) ?? "", "") }
                == true
        if fromList, verdict == .allow, tab.isEnabled, controller.selectedTabID(session.state) == tab.id {
            // From More (or its group's list) the tab is pushed as it was left (UIKit's
            // moreNavigationController), not popped to its root as a re-tap in the bar would.
            return redirect(to: TabPaths.tab(tab.id, controller.location(ofTab: tab.id, in: session.state)))
        }
        let wasAtRoot = controller.location(ofTab: tab.id, in: session.state).isEmpty
        // The model's controller allows every selection: only a refusal is handed to it.
        if verdict != .allow { controller.hooks = hooks.app.tabBarHooks(verdict: verdict) }
        let previous = controller.selectedTabID(session.state)
        let (selected, outcome) = controller.select(tab.id, in: session.state)
        switch outcome {
        case .selected(let id, let location):
            // Cancelling the search returns to the tab selected before it (iOS 26).
            session.state = tab.role == .search ? controller.enteringSearch(from: previous, in: selected) : selected
            session.notice = nil
            state.session = session
            state.record(.didSelect(tab, selected))
            return redirect(to: TabPaths.tab(id, location))
        case .poppedToRoot(let id):
            session.state = selected
            session.notice = nil
            state.session = session
            state.record(.didSelect(tab, selected))
            // Already at the root of the tab on screen: nothing new to show. The script
            // (a fetch) gets 204 and scrolls to the top itself; a plain form post (the
            // browser navigating) is sent to the root again, which it shows from the
            // top, as UIKit scrolls a tab's root up on a re-tap.
            if wasAtRoot && returnPath == TabPaths.tab(id, ""), !Self.isNavigation(request) {
                return HTTPResponse(status: .noContent)
            }
            return redirect(to: TabPaths.tab(id, ""))
        case .vetoed(let message):
            let back = returnPath ?? Self.restorationPath(controller, session.state)
            if case .askConfirmation = verdict {
                // The question is a page of its own (asked again on reload), where the tap happened.
                state.session = session
                return redirect(to: back + "?confirm=" + tab.id)
            }
            session.notice = Notice(message: message)
            state.session = session
            return redirect(to: back)
        case .disabled:
            let title = pages.localizer.title(of: tab, in: language)
            session.notice = Notice(message: language.isolatedText("tabUnavailable", ["tab": title]))
        case .unknownTab:
            throw HTTPError.badRequest(
                language.isolatedText("noSuchTab", ["tab": String(tabID.prefix(40))]), field: "tab")
        }
        // Refused: nothing about the tabs changes; back to where the visitor was, with the message.
        state.session = session
        return redirect(to: returnPath ?? Self.restorationPath(controller, session.state))
    }
}
