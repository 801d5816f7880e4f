// SPDX-License-Identifier: Apache-2.0
import TabServerMustache

/// One page of a tab's content: what the tab's template renders at a location.
public struct TabPage: Sendable {
    /// The page title (header and `<title>`).
    public var title: String
    /// The location of the page one level up this tab's stack ("" = the tab's root),
    /// or nil on the root itself. The back link goes there, whatever the browser history.
    public var parentLocation: String?
    /// The title of that parent page (the back link's label).
    public var parentTitle: String?
    /// Values for the template, under `page` in the template context.
    public var context: MustacheValue
    /// The language of the content (BCP 47, e.g. "en") when it is not translated with the
    /// UI: marked on the content so screen readers and bidi layout treat it right.
    public var language: String?
    /// Set when the page is the same for every visitor: a key naming this content
    /// (e.g. "music/albums/3"). The app then renders the page once per tab bar
    /// arrangement and reuses it. Leave nil for content that differs per visitor.
    public var cacheKey: String?

    /// Shows the page without the tab bar (UIKit's `hidesBottomBarWhenPushed`, SwiftUI's
    /// `.toolbar(.hidden, for: .tabBar)`): a composer, a full-screen detail. Give it a
    /// `parentLocation`, so its back item leads to a page with the bar again.
    ///
    /// ```swift
    /// var player = TabPage(title: "Now Playing", parentLocation: "albums/3", context: [:])
    /// player.hidesBottomBar = true
    /// ```
    public var hidesBottomBar = false

    public init(
        title: String, parentLocation: String? = nil, parentTitle: String? = nil, context: MustacheValue,
        cacheKey: String? = nil
    ) {
        self.cacheKey = cacheKey
        self.title = title
        self.parentLocation = parentLocation
        self.parentTitle = parentTitle
        self.context = context
    }
}
