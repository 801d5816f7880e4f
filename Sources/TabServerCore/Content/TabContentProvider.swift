// SPDX-License-Identifier: Apache-2.0
import TabBar

/// Supplies each tab's pages. The app asks for the page at a location below a tab's
/// root (`[]` is the root, `["albums", "12"]` is `/tabs/music/albums/12`); nil is a 404
/// that still shows the tab bar. Called on the engine's threads: keep it quick and
/// thread-safe.
///
/// ```swift
/// struct Shop: TabContentProvider {
///     func page(for request: TabPageRequest) -> TabPage? {
///         request.location.isEmpty ? TabPage(title: request.tab.title, context: ["items": []]) : nil
///     }
/// }
/// ```
public protocol TabContentProvider: Sendable {
    /// The page `request` asks for, or nil when there is none.
    func page(for request: TabPageRequest) -> TabPage?
}
