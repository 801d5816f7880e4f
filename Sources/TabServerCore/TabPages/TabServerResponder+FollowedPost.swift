// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerTabBar
import TabServerWeb

extension TabServerResponder {
    /// The request header by which app.js asks for the page itself in answer to a post
    /// (`TabServer-Answer: page`) instead of a 303 it would have to follow: one round
    /// trip per tap on a phone's network.
    static let answerRequestHeader = "tabserver-answer"

    /// The response header naming the page a post answered with (what the 303's
    /// `Location` would have been, base path included), so the script can put it in the
    /// address bar.
    static let locationResponseHeader = "TabServer-Location"

    /// The response header of a prefetched tab page saying what a tap on that tab's bar
    /// item would do now: `allow` (app.js may show the prefetched page at once, before
    /// the select's answer), or `ask` (the app's `shouldSelect` would refuse or ask
    /// first, or the tab is disabled: the script waits for the answer).
    static let selectHintHeader = "TabServer-Select"

    /// `TabServer-Select`'s value for a tap on `tab` in `state` (see `selectHintHeader`).
    func selectionHint(_ tab: Tab, _ state: TabBarState, user: String?) -> String {
        guard tab.isEnabled else { return "ask" }
        guard hooks.app.vetoes else { return "allow" }
        let verdict = AppHooks.$user.withValue(user) { hooks.app.shouldSelect(tab, state, false) }
        return verdict == .allow ? "allow" : "ask"
    }

    /// Whether the request is a post whose sender asked for the page it leads to.
    static func asksForPage(_ request: HTTPRequest) -> Bool {
        request.method == .post && request.headers[answerRequestHeader]?.lowercased() == "page"
    }

    /// The page a post's `303 See Other` leads to, rendered in this same request: the GET
    /// of its `Location`, run on the state as the post left it, so the page shows the new
    /// state and the request's one commit writes the post's change (and the visit's)
    /// exactly once. Nil, keeping the 303, when the answer is not a redirect to one of
    /// our own pages, or the page fails (its error is for its own GET to show).
    nonisolated(nonsending) func followedPage(
        to response: HTTPResponse, for request: HTTPRequest, context: RequestContext
    ) async
        -> HTTPResponse?
    {
        guard response.status == .seeOther, let location = response.headers["location"],
            let target = Self.ownPage(location, basePath: configuration.basePath),
            case .found(let match) = routing.routes.resolve(.get, target.path)
        else { return nil }
        var page = HTTPRequest(
            method: .get, path: target.path, query: target.query, headers: request.headers,
            remoteAddress: request.remoteAddress, version: request.version)
        page.receivedAt = request.receivedAt
        for name in ["content-type", "content-length", Self.answerRequestHeader] { page.headers.remove(name) }
        let handle = context.visitor
        // The state as the post left it, to go back to if the page fails: held by
        // reference, so this async function's frame holds a pointer, not the state.
        let before = handle.snapshot()
        handle.state.follow(page)
        var pageContext = context
        pageContext.parameters = match.parameters
        guard var answer = try? await match.handler(page, pageContext), answer.status == .ok else {
            handle.restore(before)
            return nil
        }
        answer.headers.add(Self.locationResponseHeader, location)
        return answer
    }

    /// The path below the base path and the query of `location`, if it is a page of this
    /// app (a path of ours, not another origin's).
    static func ownPage(_ location: String, basePath: String) -> (path: String, query: [(name: String, value: String)])?
    {
        guard location.hasPrefix(basePath) else { return nil }
        let rest = location.dropFirst(basePath.count)
        guard rest.hasPrefix("/"), !rest.hasPrefix("//") else { return nil }
        let parts = rest.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = URLEncoding.decode(parts[0], plusIsSpace: false)
        let query = parts.count > 1 ? URLEncoding.decodeForm(parts[1]) : []
        return (path, query)
    }
}
