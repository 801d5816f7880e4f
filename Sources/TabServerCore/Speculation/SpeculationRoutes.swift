// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerCrypto
import TabServerHTTP
import TabServerJSON
import TabServerTabBar
import TabServerWeb

/// `GET /speculation-rules.json`: what the browser may prefetch and prerender next.
enum SpeculationRoutes: LibraryRoutes {
    /// The speculation rules every page names in its `Speculation-Rules` header.
    static func add(to router: Router<RequestContext>) {
        router.on(
            .get, speculationRulesPath,
            use: TabServerResponder.library { app, _, _, state throws(HTTPError) in try speculationRules(app, &state) })
    }

    /// Where every page's `Speculation-Rules` header points (below the base path).
    static let speculationRulesPath = "/speculation-rules.json"

    /// `GET /speculation-rules.json`: the visitor's speculation rules (Chromium 121+),
    /// named by every page's `Speculation-Rules` header, so the pages stay the same for
    /// everyone at a revision (the page cache keeps them) while the rules follow the
    /// visitor. Links inside the page's content to tab pages are prefetched at moderate
    /// eagerness (on hover or press) where app.js runs (`html.js`): a visit is the page's
    /// request, and a prefetched page the browser shows without the script would reach
    /// the server only as a prefetch, so the tab would not remember it. The likeliest next tab — one with a count badge
    /// (something new there), else the bar's next item — is prerendered where it was
    /// left, for a visitor whose session is stored. The browser fetches both with
    /// `Sec-Purpose`, which the server answers
    /// without changing the session or counting a visit.
    static func speculationRules(_ app: TabServerResponder, _ state: inout RequestState) throws(HTTPError)
        -> HTTPResponse
    {
        let session = try app.visitor(&state)
        let controller = state.controller
        let base = app.configuration.basePath
        let prefetch =
            #"{"source":"document","where":{"and":[{"href_matches":"\#(base)/tabs/*"},{"selector_matches":"html.js main a[href]"},{"not":{"selector_matches":"[rel~=nofollow]"}}]},"eagerness":"moderate"}"#
        var rules = #"{"prefetch":[\#(prefetch)]"#
        // A visitor without a stored session is not prerendered for: its first post makes
        // the session, with a form token of its own, and a page prerendered before it
        // (shown as it is where app.js does not run) would post the old one and be refused.
        if !state.isNewSession, let next = Self.likeliestNextTab(controller, session.state) {
            let path = base + TabPaths.tab(next, controller.location(ofTab: next, in: session.state))
            rules +=
                #","prerender":[{"source":"list","urls":["\#(JSONString.escaped(path))"],"eagerness":"immediate"}]"#
        }
        rules += "}"
        var headers = HTTPHeaders()
        headers.add("Content-Type", "application/speculationrules+json")
        headers.add("Cache-Control", "private, no-cache")
        headers.add("X-Content-Type-Options", "nosniff")
        let body = Array(rules.utf8)
        let etag = "\"sr-" + Digest.hex(Digest.sha256(body).prefix(8)) + "\""
        headers.add("ETag", etag)
        if state.request.headers["if-none-match"] == etag {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(body))
    }

    /// The tab a visitor most likely opens next, other than the selected one, among the
    /// enabled tabs of the phone's bar: the first with a count badge, else the one after
    /// the selected item (the first when it is the last); nil with nothing else there.
    static func likeliestNextTab(_ controller: TabBarController, _ state: TabBarState) -> String? {
        let layout = controller.layout(state)
        let selected = controller.selectedTabID(state)
        let candidates = layout.compactBarItems.filter { $0.tab.isEnabled && !$0.isGroup && $0.tab.id != selected }
        if let badged = candidates.first(where: { if case .count(let n) = $0.badge?.value { n > 0 } else { false } }) {
            return badged.tab.id
        }
        let order = layout.compactBarItems.map(\.tab.id)
        guard let index = order.firstIndex(of: selected) else { return candidates.first?.tab.id }
        let after = order[(index + 1)...] + order[..<index]
        return after.first { id in candidates.contains { $0.tab.id == id } }
    }
}
