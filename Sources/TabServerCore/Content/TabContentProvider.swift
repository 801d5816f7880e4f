// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerWeb

/// Supplies each tab's pages and actions. The app asks for the page at the context's tab
/// and location (`context.location`: `[]` is the root, `["albums", "12"]` is
/// `/tabs/music/albums/12`); nil is a 404 that still shows the tab bar. A form posted to a
/// location below a tab runs the action there (`action(for:)`). Handlers are async: they
/// run as the request's task on its engine loop, and what blocks goes to
/// `context.blocking`.
///
/// Most apps declare their tabs with `TabContent` rather than conforming themselves:
///
/// ```swift
/// var content = TabContent()
/// content.tab("notes") { notes in
///     notes.page { _, context in TabPage(title: context.tab?.title ?? "", context: ["notes": []]) }
///     notes.action("new") { _, _ in .redirect(to: "", notice: "Saved") }
/// }
/// ```
public protocol TabContentProvider: Sendable {
    /// The page the context's tab and location name, or nil when there is none.
    func page(for request: HTTPRequest, context: RequestContext) async throws -> TabPage?

    /// Whether there is a page at the context's tab and location, without making it (a
    /// post where only a page is: 405, not 404). The default says there is.
    func hasPage(for context: RequestContext) -> Bool

    /// The action a form posted to the context's location runs, or nil when there is none
    /// there (then 405 where a page is, else 404). The default has no actions. The
    /// context's `parameters` are what the action's pattern captured.
    func action(for context: RequestContext) -> (TabAction, RouteParameters)?

    /// The strip shown above the bar on every tab (UIKit's `UITabAccessory`), or nil for
    /// none (the default). Called for each page with the bar, and for the accessory's
    /// own form posts (which run one of its `actions`): keep it quick.
    func accessory(for request: TabAccessoryRequest) -> TabAccessory?
}

extension TabContentProvider {
    public func hasPage(for context: RequestContext) -> Bool { true }

    /// No actions.
    public func action(for context: RequestContext) -> (TabAction, RouteParameters)? { nil }

    /// No accessory.
    public func accessory(for request: TabAccessoryRequest) -> TabAccessory? { nil }
}
