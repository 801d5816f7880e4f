// SPDX-License-Identifier: Apache-2.0

/// Which way a page moves when the browser itself goes to it from another of the app's
/// pages (a cross-document view transition, as without the script), written into the
/// page as a few lines of CSS.
///
/// Each page's content has a name of its own: `page-tab-<id>-<depth>` inside a tab,
/// `page-more-<depth>` for More and Edit, the depth being the path's segments
/// (`/tabs/music` 2, `/tabs/music/albums/1` 4). The browser styles a transition with the
/// new page's CSS and takes each snapshot's name from the page it was taken on, so a rule
/// of the new page on the old page's name knows both ends:
///
/// - deeper into the same tab, or from More's list into a tab, is a push: the old page
///   slides out to the leading edge over the new one;
/// - up in the same tab, or from a tab to More's list, is a pop: it slides out to the
///   trailing edge;
/// - anything else (a tab switch) swaps without sliding (`app.css`). A page left by a bar
///   item (focus in the bar as the browser leaves it) is named `page-switch` by app.css,
///   which no rule slides: a bar item on More's list, or More in the bar, is a switch.
///
/// The rules are the page's own, whatever the visitor did before, so a page Back brings
/// out of the back/forward cache moves the right way too. With the script every page's
/// content has the one name `page` and the script names the direction (`app.css`).
package enum PageTransitionStyle {
    /// Deeper pages share this depth's name (and swap among themselves).
    package static let deepest = 6

    /// The CSS for the page at `path` (below the base path; a query is ignored), or nil
    /// for a path that is neither a tab's page nor More's.
    package static func css(forPath path: String) -> String? {
        let route = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let segments = route.split(separator: "/")
        let depth = min(segments.count, deepest)
        if segments.first == "more" {
            return moreCSS(depth: depth)
        }
        guard segments.count >= 2, segments[0] == "tabs" else { return nil }
        return tabCSS(id: String(segments[1]), depth: depth)
    }

    private static func tabCSS(id: String, depth: Int) -> String {
        let name = "page-tab-\(id)-"
        let pushedFrom = (2..<max(depth, 2)).map { name + String($0) } + ["page-more-1"]
        let poppedFrom = ((depth + 1)..<(deepest + 1)).map { name + String($0) }
        return "main.app-content{view-transition-name:\(name)\(depth)}"
            + exits(pushedFrom, "push") + exits(poppedFrom, "pop")
    }

    /// More's list is where a tab's back item to More leads (a pop from any page of any
    /// tab): its rule names no tab, it marks the transition with a type app.css takes up.
    private static func moreCSS(depth: Int) -> String {
        var css = "main.app-content{view-transition-name:page-more-\(depth)}"
        if depth == 1 {
            css +=
                "@media (prefers-reduced-motion:no-preference){@view-transition{navigation:auto;types:tabserver-to-more}}"
            css += exits(["page-more-2"], "pop")
        } else {
            css += exits((1..<depth).map { "page-more-\($0)" }, "push")
        }
        return css
    }

    /// The old page, when it has one of `names`, slides out (`--tabserver-<kind>-exit`,
    /// mirrored in right-to-left by app.css) above the new one.
    private static func exits(_ names: [String], _ kind: String) -> String {
        guard !names.isEmpty else { return "" }
        let groups = names.map { "::view-transition-group(\($0))" }.joined(separator: ",")
        let olds = names.map { "::view-transition-old(\($0)):only-child" }.joined(separator: ",")
        return "\(groups){z-index:1}\(olds){animation-name:var(--tabserver-\(kind)-exit)}"
    }
}
