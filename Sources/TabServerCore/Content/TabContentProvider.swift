import TabBar

/// Supplies each tab's pages. The app asks for the page at a location below a tab's
/// root (`[]` is the root, `["albums", "12"]` is `/tabs/music/albums/12`); nil is a 404
/// that still shows the tab bar.
///
/// ```swift
/// struct Shop: TabContentProvider {
///     func page(tab: Tab, location: [Substring]) -> TabPage? {
///         location.isEmpty ? TabPage(title: tab.title, context: ["items": []]) : nil
///     }
/// }
/// ```
public protocol TabContentProvider: Sendable {
    /// The page at `location` in `tab`, or nil when there is none.
    func page(tab: Tab, location: [Substring], basePath: String) -> TabPage?
}
