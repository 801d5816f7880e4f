// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// Supplies each tab's pages and actions. The app asks for the page at a location below
/// a tab's root (`[]` is the root, `["albums", "12"]` is `/tabs/music/albums/12`); nil
/// is a 404 that still shows the tab bar. A form posted to a location below a tab runs
/// the action there (`action(for:)`). Called on the engine's threads: keep `page(for:)`
/// quick and thread-safe, and give slow pages a loader instead (`loader(for:)`), which
/// runs off the engine's threads.
///
/// Most apps declare their tabs with `TabContent` rather than conforming themselves:
///
/// ```swift
/// var content = TabContent()
/// content.tab("notes") { notes in
///     notes.page("") { request in TabPage(title: request.tab.title, context: ["notes": []]) }
///     notes.action("new") { request in .redirect(to: "", notice: "Saved") }
/// }
/// ```
public protocol TabContentProvider: Sendable {
    /// The page `request` asks for, or nil when there is none.
    func page(for request: TabPageRequest) -> TabPage?

    /// A loader for the page `request` asks for, when it must be loaded without holding
    /// an engine thread (a database, another service); nil (the default) when
    /// `page(for:)` answers it.
    func loader(for request: TabPageRequest) -> TabPageLoader?

    /// The action a form posted to `request`'s location runs, or nil when there is none
    /// there (then 405 where a page is, else 404). The default has no actions.
    func action(for request: TabActionRequest) -> TabAction?

    /// The strip shown above the bar on every tab (UIKit's `UITabAccessory`), or nil for
    /// none (the default). Called for each page with the bar, and for the accessory's
    /// own form posts (which run one of its `actions`): keep it quick.
    func accessory(for request: TabAccessoryRequest) -> TabAccessory?
}

extension TabContentProvider {
    /// No loaders: every page comes from `page(for:)`.
    public func loader(for request: TabPageRequest) -> TabPageLoader? { nil }

    /// No actions.
    public func action(for request: TabActionRequest) -> TabAction? { nil }

    /// No accessory.
    public func accessory(for request: TabAccessoryRequest) -> TabAccessory? { nil }
}
