// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerWeb

extension TabServerResponder {
    /// `POST /sidebar`: the sidebar toggle of 1024 px and wider screens (iPadOS 18's,
    /// `UITabBarController.mode` `.tabSidebar`). `sidebar=hide` shows the bar instead of
    /// the sidebar, `sidebar=show` the sidebar again; the choice is kept in the session
    /// and the answer is 303 back to the page the toggle was on.
    ///
    /// The form names the state it asks for, so a post from a window that is out of
    /// date (the other window already switched) is a 409 that says so and changes
    /// nothing, as is a post once the app stopped offering the toggle.
    func toggleSidebar(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        try verifyCSRF(request, state: state)
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
        let back = request.formValue("return").flatMap(Self.returnPath)
        return redirect(to: back ?? Self.restorationPath(controller, session.state))
    }
}
