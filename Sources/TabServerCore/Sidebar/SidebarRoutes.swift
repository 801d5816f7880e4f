// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerWeb

/// The sidebar's posts: show or hide it, collapse or expand a group of it.
enum SidebarRoutes: LibraryRoutes {
    /// The sidebar: shown or hidden, and its groups collapsed or expanded.
    static func add(to router: Router<RequestContext>) {
        router.on(
            .post, "/sidebar", crossSite: .checkedByHandler,
            use: TabServerResponder.library { app, request, _, state throws(HTTPError) in
                try toggleSidebar(app, request, state: &state)
            })
        router.on(
            .post, "/sidebar/group", crossSite: .checkedByHandler,
            use: TabServerResponder.library { app, request, _, state throws(HTTPError) in
                try collapseGroup(app, request, state: &state)
            })
    }

    /// `POST /sidebar`: the sidebar toggle of 1024 px and wider screens (iPadOS 18's,
    /// `UITabBarController.mode` `.tabSidebar`). `sidebar=hide` shows the bar instead of
    /// the sidebar, `sidebar=show` the sidebar again; the choice is kept in the session
    /// and the answer is 303 back to the page the toggle was on.
    ///
    /// The form names the state it asks for, so a post from a window that is out of
    /// date (the other window already switched) is a 409 that says so and changes
    /// nothing, as is a post once the app stopped offering the toggle.
    static func toggleSidebar(_ app: TabServerResponder, _ request: HTTPRequest, state: inout RequestState)
        throws(HTTPError) -> HTTPResponse
    {
        var session = try app.visitor(&state)
        try app.verifyCSRF(request, state: state)
        let controller = state.controller
        let value = try request.requiredField("sidebar")
        let hidden: Bool
        switch value {
        case "show": hidden = false
        case "hide": hidden = true
        default:
            throw HTTPError.badRequest(
                "The sidebar can be shown or hidden, not “\(value.prefix(40))”: use show or hide.", field: "sidebar")
        }
        guard controller.model.appearance.allowsSidebarToggle else {
            throw HTTPError.conflict(
                "This app no longer lets you switch between sidebar and tab bar. Nothing was changed.")
        }
        guard controller.showsSidebar(session.state) == hidden else {
            throw HTTPError.conflict(
                hidden
                    ? "The sidebar is already hidden (another window hid it). Nothing was changed."
                    : "The sidebar already shows (another window showed it). Nothing was changed.")
        }
        session.state = controller.settingSidebarHidden(hidden, in: session.state)
        state.session = session
        let back = request.formValue("return").flatMap(TabServerResponder.returnPath)
        return app.redirect(to: back ?? TabServerResponder.restorationPath(controller, session.state))
    }

    /// `POST /sidebar/group`: collapses (`collapse=<group>`) or expands (`expand=<group>`)
    /// a tab group's section of the sidebar (UIKit's `UITabGroup` in the sidebar), kept in
    /// the session; 303 back to the page it was on. The heading's button is part of the
    /// bar's form, so the post carries its CSRF token and return path. A post that asks for
    /// what is already so (another window did it) is a 409; an unknown group a 400.
    static func collapseGroup(_ app: TabServerResponder, _ request: HTTPRequest, state: inout RequestState)
        throws(HTTPError) -> HTTPResponse
    {
        var session = try app.visitor(&state)
        try app.verifyCSRF(request, state: state)
        let controller = state.controller
        let collapsed: Bool
        let group: String
        if let name = request.formValue("collapse") {
            (collapsed, group) = (true, name)
        } else if let name = request.formValue("expand") {
            (collapsed, group) = (false, name)
        } else {
            throw HTTPError.badRequest("The form field 'collapse' or 'expand' is missing.", field: "collapse")
        }
        guard controller.groupNames.contains(group) else {
            throw HTTPError.badRequest(
                "There is no tab group “\(group.prefix(40))” to collapse or expand.",
                field: collapsed ? "collapse" : "expand")
        }
        guard controller.isGroupCollapsed(group, in: session.state) != collapsed else {
            throw HTTPError.conflict(
                collapsed
                    ? "“\(group.prefix(40))” is already collapsed (perhaps in another window). Nothing was changed."
                    : "“\(group.prefix(40))” is already expanded (perhaps in another window). Nothing was changed.")
        }
        if let next = controller.settingGroup(group, collapsed: collapsed, in: session.state) { session.state = next }
        state.session = session
        let back = request.formValue("return").flatMap(TabServerResponder.returnPath)
        return app.redirect(to: back ?? TabServerResponder.restorationPath(controller, session.state))
    }
}
