// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerWeb

extension TabServerResponder {
    /// `GET /tabs/<group>`: a declared group's page, the list of its children (UIKit's
    /// `UITabGroup` as a tab on a phone). While it shows, the group's stack is empty and
    /// the group is the bar's selected item (on More's stack when it is in More).
    func groupPage(_ group: TabGroup, session loaded: Session, state: inout RequestState) throws(HTTPError)
        -> HTTPResponse
    {
        var session = loaded
        let language = language(state.request, session)
        if !Self.isPrefetch(state.request) {
            guard let next = state.controller.showingGroupList(group.id, in: session.state) else {
                throw HTTPError.forbidden(
                    language.isolatedText("tabUnavailable", ["tab": group.title(in: language)]))
            }
            session.state = state.controller.pushingOntoMore(group.id, in: next)
        }
        var notice = takeNotice(&session, state: &state)
        notice = pendingQuestion(state.request, session) ?? notice
        return html(
            pages.views.groupPage(
                group, session: session, model: state.model, notice: notice, language: language,
                variant: pages.variant(state, language),
                accessory: AccessoryRoutes.strip(self, session, language: language, state: state)))
    }

    /// `POST /select` naming a declared group (its bar item or its row in More): the
    /// child left on the group's stack, where it was left; else the group's list; a tap
    /// while the group is selected pops to the list (as a re-tap of More does). At the
    /// list already, the script's tap gets 204 (nothing new to show), as a tab's root does.
    func openGroup(_ groupID: String, _ request: HTTPRequest, state: inout RequestState) throws(HTTPError)
        -> HTTPResponse
    {
        var session = try visitor(&state)
        let controller = state.controller
        guard let (next, outcome) = controller.selectGroup(groupID, in: session.state) else {
            throw HTTPError.badRequest("There is no tab group “\(groupID.prefix(40))”.", field: "tab")
        }
        let listPath = TabPaths.tab(groupID, "")
        let returnPath = request.formValue("return").flatMap(Self.returnPath)
        session.notice = nil
        switch outcome {
        case .selected(let id, let location):
            session.state = next
            state.session = session
            return redirect(to: TabPaths.tab(id, location))
        case .poppedToRoot:
            let wasAtList = returnPath == listPath && controller.groupStackTabID(groupID, in: session.state) == nil
            session.state = next
            state.session = session
            if wasAtList, !Self.isNavigation(request) { return HTTPResponse(status: .noContent) }
            return redirect(to: listPath)
        case .disabled, .vetoed, .unknownTab:
            let language = language(request, session)
            let title = controller.model.group(id: groupID)?.title(in: language) ?? groupID
            session.notice = Notice(message: language.isolatedText("tabUnavailable", ["tab": title]))
            state.session = session
            return redirect(to: returnPath ?? Self.restorationPath(controller, session.state))
        }
    }
}
