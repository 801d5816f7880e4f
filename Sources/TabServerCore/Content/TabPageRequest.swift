// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import TabServerWeb

/// What a content provider knows about the page asked for.
public struct TabPageRequest: Sendable {
    /// The tab, its title already in the visitor's language.
    public let tab: Tab
    /// The path below the tab's root, split at `/` (`[]` is the root).
    public let location: [Substring]
    /// The app's base path ("" or e.g. "/app"): prefix links with it.
    public let basePath: String
    /// The query arguments of the URL, decoded, in order (`/tabs/search?q=milk`).
    public let query: [(name: String, value: String)]
    /// The visitor's UI language (BCP 47 code, e.g. "de").
    public let language: String
    /// The signed-in user, as the authenticating proxy named them (`--identity-header`);
    /// nil for an anonymous visitor. Show per-user content with it.
    public let user: String?
    /// What the page's pattern captured (`{id}` in `"{id}/edit"`); empty for a provider
    /// that matches locations itself.
    public internal(set) var parameters = RouteParameters()
    /// Values this app keeps for the visitor (set by an action's result: a setting),
    /// stored with their session; a signed-in user's follow them to every browser.
    public internal(set) var visitorValues: [String: String] = [:]

    public init(
        tab: Tab, location: [Substring], basePath: String = "", query: [(name: String, value: String)] = [],
        language: String = "en", user: String? = nil, visitorValues: [String: String] = [:]
    ) {
        self.visitorValues = visitorValues
        self.user = user
        self.tab = tab
        self.location = location
        self.basePath = basePath
        self.query = query
        self.language = language
    }

    /// The first query argument of that name.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
