// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

extension TabServerResponder {
    /// The tab pages: `GET /` (back to where the visitor was), a tab's pages and its actions.
    static func addTabPageRoutes(to router: Router<RequestContext>) {
        router.on(.get, "/", use: library { app, _, _, state throws(HTTPError) in try app.home(&state) })
        router.on(.get, "/tabs/{tab}") { request, context in
            try await context.visitor.app.tabPage(
                try context.parameters.require("tab"), location: "", request: request, context: context)
        }
        router.on(.get, "/tabs/{tab}/{location*}") { request, context in
            try await context.visitor.app.tabPage(
                try context.parameters.require("tab"), location: try context.parameters.require("location"),
                request: request, context: context)
        }
        router.on(.post, "/tabs/{tab}", crossSite: .checkedByHandler) { request, context in
            try await context.visitor.app.tabAction(
                try context.parameters.require("tab"), location: "", request: request, context: context)
        }
        router.on(.post, "/tabs/{tab}/{location*}", crossSite: .checkedByHandler) { request, context in
            try await context.visitor.app.tabAction(
                try context.parameters.require("tab"), location: try context.parameters.require("location"),
                request: request, context: context)
        }
    }

    /// `GET /`: back to where the visitor was (UIKit's state restoration).
    func home(_ state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        let session = try visitor(&state)
        let target = state.controller.restorationTarget(session.state)
        return redirect(to: TabPaths.tab(target.tabID, target.location))
    }

    /// `GET /tabs/{tab}/{location*}`: a page of a tab. Visiting marks the tab selected and
    /// remembers the location, so selecting the tab later comes back here.
    nonisolated(nonsending) func tabPage(
        _ tabID: String, location: String, request: HTTPRequest, context: RequestContext
    ) async throws
        -> HTTPResponse
    {
        let handle = context.visitor
        let tab: Tab
        let localized: Tab
        let language: Language
        let pageContext: RequestContext
        switch try pageToRender(tabID, location: location, request: request, context: context) {
        case .answered(let response):
            return response
        case .render(let found, let title, let chosen, let foundContext):
            (tab, localized, language, pageContext) = (found, title, chosen, foundContext)
        }
        let found: TabPage?
        do {
            found = try await content.page(for: request, context: pageContext)
        } catch let error as any HTTPResponseError {
            throw error
        } catch {
            throw reported(error)
        }
        guard let page = found else {
            throw HTTPError.notFound(language.isolatedText("noSuchPage", ["tab": localized.title]))
        }
        // The page's handler ran: the state as it left it (a value it set), changed in place.
        return try shownPage(
            page, of: tab, localized: localized, location: location, language: language, state: &handle.state)
    }

    /// What a tab page starts with.
    private enum PageStart {
        /// Answered without the content: from the page cache, or a group's page.
        case answered(HTTPResponse)
        /// The content's page to make: the tab, its title in the visitor's language, the
        /// language, and the context the content gets.
        case render(Tab, Tab, Language, RequestContext)
    }

    /// The page cache asked, the tab and location checked, the content's context made.
    private func pageToRender(
        _ tabID: String, location: String, request: HTTPRequest, context: RequestContext
    ) throws -> PageStart {
        let handle = context.visitor
        // Seen before and nothing changed since: the finished page (see `PageAnswerCache`).
        // Not when the app's middleware stored a value: the request commits it.
        if !handle.state.pageCacheAsked, !handle.storedOuterValues, let key = try pageAnswerKey(&handle.state),
            let cached = try cachedPageAnswer(key, state: &handle.state)
        {
            return .answered(cached)
        }
        let session = try visitor(&handle.state)
        let controller = handle.state.controller
        let language = language(request, session)
        guard let tab = controller.model.tab(id: tabID) else {
            if let group = controller.model.group(id: tabID), location.isEmpty {
                return .answered(try groupPage(group, session: session, state: &handle.state))
            }
            throw HTTPError.notFound(language.isolatedText("noSuchTab", ["tab": String(tabID.prefix(40))]))
        }
        var localized = tab
        localized.title = pages.localizer.title(of: tab, in: language)
        guard location.isEmpty || TabBarController.isValidLocation(location) else {
            throw HTTPError.notFound(language.isolatedText("noSuchPage", ["tab": localized.title]))
        }
        return .render(tab, localized, language, context.entering(localized, location: location.split(separator: "/")))
    }

    /// A tab page once its content is known: the visit recorded in the session (the tab
    /// selected, its location remembered), the page rendered, or answered from the cache.
    private func shownPage(
        _ page: TabPage, of tab: Tab, localized: Tab, location: String, language: Language,
        state: inout RequestState
    ) throws -> HTTPResponse {
        var session = try visitor(&state)
        let controller = state.controller
        // The search tab remembers its last query (UIKit's search tab keeps its text).
        var remembered = location
        if tab.role == .search, location.isEmpty, let query = state.request.queryValue("q"), !query.isEmpty {
            let encoded = "?q=" + URLEncoding.encodeComponent(String(query.prefix(200)))
            if TabBarController.isValidLocation(encoded) { remembered = encoded }
        }
        let before = controller.selectedTabID(session.state)
        let tapHint = Self.isPrefetch(state.request) ? selectionHint(tab, session.state, user: state.user) : nil
        var (visited, outcome) = controller.visit(tab.id, location: remembered, in: session.state)
        // Cancelling the search returns to the tab selected before it (iOS 26).
        if tab.role == .search, !Self.isPrefetch(state.request) {
            visited = controller.enteringSearch(from: before, in: visited)
        }
        switch outcome {
        case .selected, .poppedToRoot:
            // A tab of More is pushed onto More's stack, which a tap on More shows again.
            // A child of a declared group goes onto its group's stack the same way.
            session.state =
                Self.isPrefetch(state.request)
                ? visited : controller.pushingOntoGroup(tab.id, in: controller.pushingOntoMore(tab.id, in: visited))
        case .disabled:
            throw HTTPError.forbidden(language.isolatedText("tabUnavailable", ["tab": localized.title]))
        case .unknownTab, .vetoed:
            throw HTTPError.notFound(language.isolatedText("noSuchTab", ["tab": String(tab.id.prefix(40))]))
        }
        var notice = takeNotice(&session, state: &state)
        notice = pendingQuestion(state.request, session) ?? notice
        // The strip above the bar stays across tabs; a page without the bar has none.
        let strip =
            page.hidesBottomBar
            ? nil : AccessoryRoutes.strip(self, session, tab: localized, language: language, state: state)
        let body = pages.views.tabPage(
            tab: localized, page: page, location: location, session: session, model: state.model, notice: notice,
            language: language, variant: pages.variant(state, language), accessory: strip)
        // Kept for next time only when it is the same for everyone at this revision: content
        // (and accessory) that says so, no notice. With nothing to write, now; a visit that
        // writes (another tab selected) keeps its page for the revision it writes, once that
        // write is durable, if a visit to this page then would change nothing more.
        let cacheable = notice == nil && page.cacheKey != nil && (strip == nil || strip?.cacheKey != nil)
        let unchanged =
            cacheable && (state.isNewSession ? session.isDefault(for: controller) : session == state.loaded)
        var response: HTTPResponse
        if unchanged {
            response = pageAnswer(body, key: try pageAnswerKey(&state), state: &state)
        } else if cacheable, tab.role != .search, remembered == location,
            Self.revisits(tab.id, location: location, session.state, controller: controller),
            let pending = try pendingPage(body, shown: session, state: &state)
        {
            state.pageAfterWrite = pending
            state.prepared = pending.entry.prepared
            response = pending.entry.response
        } else {
            response = html(body, for: state.request)
        }
        // Never a cached answer: a prefetch has no cache key.
        if let tapHint { response.headers.add(Self.selectHintHeader, tapHint) }
        return response
    }

    /// Whether a visit to `tabID` at `location` leaves `state` as it is: then the page of
    /// the state a visit wrote is what the next visit shows without writing.
    private static func revisits(
        _ tabID: String, location: String, _ state: TabBarState, controller: TabBarController
    ) -> Bool {
        let (visited, outcome) = controller.visit(tabID, location: location, in: state)
        switch outcome {
        case .selected, .poppedToRoot: break
        case .disabled, .unknownTab, .vetoed: return false
        }
        return controller.pushingOntoGroup(tabID, in: controller.pushingOntoMore(tabID, in: visited)) == state
    }

    /// The path of the visitor's current place (UIKit's state restoration target).
    static func restorationPath(_ controller: TabBarController, _ state: TabBarState) -> String {
        let back = controller.restorationTarget(state)
        return TabPaths.tab(back.tabID, back.location)
    }

    /// `value` if it names a page of this app (`/more`, `/more/edit` or a tab page),
    /// else nil: a posted return path never leads outside the app.
    static func returnPath(_ value: String) -> String? {
        if value == "/more" || value == "/more/edit" { return value }
        guard value.hasPrefix("/tabs/") else { return nil }
        let rest = value.dropFirst("/tabs/".count)
        let allowed = rest.utf8.allSatisfy {
            (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "-")
                || $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".")
        }
        guard allowed, !rest.isEmpty, !rest.contains("//"), !rest.contains(".."), rest.utf8.count <= 512 else {
            return nil
        }
        return value
    }

    /// The notice a page shows once, taken out of the session with the page's other
    /// changes kept. A prefetch shows none and keeps nothing: the notice waits for the
    /// visit (live.js redrawing the bar must not swallow what an Edit step said).
    func takeNotice(_ session: inout Session, state: inout RequestState) -> Notice? {
        guard !Self.isPrefetch(state.request) else { return nil }
        let notice = session.notice
        session.notice = nil
        session = state.keep(session)
        return notice
    }

    /// The question of a `shouldSelect` that asks for confirmation, when the page's URL
    /// carries `?confirm=<tab>` (the answer to a refused tap): asked again on every load
    /// until the visitor confirms or cancels, in the page's language.
    func pendingQuestion(_ request: HTTPRequest, _ session: Session) -> Notice? {
        guard let id = request.queryValue("confirm"), let tab = tabs.current.controller.model.tab(id: id),
            tab.isEnabled, case .askConfirmation(let message) = hooks.app.shouldSelect(tab, session.state, false)
        else { return nil }
        return Notice(message: message, confirmTabID: tab.id)
    }

    /// Pages are the visitor's own (no shared cache keeps one) and revalidated on every
    /// use, which lets the browser keep them for Back (its back/forward cache) and ask
    /// with `If-None-Match` when it has a copy.
    static let pageCacheControl = "private, no-cache"

    func html(_ body: [UInt8], status: HTTPStatus = .ok) -> HTTPResponse {
        // Room for these eight and a few more (an ETag, Content-Encoding, Set-Cookie).
        var headers = HTTPHeaders(capacity: 12)
        headers.add("Content-Type", "text/html; charset=utf-8")
        headers.add("Cache-Control", Self.pageCacheControl)
        headers.add("Vary", pages.vary(tabs.platformStyle))
        headers.add("X-Content-Type-Options", "nosniff")
        headers.add("Referrer-Policy", "same-origin")
        headers.add("X-Frame-Options", "DENY")
        // The visitor's speculation rules, apart from the page (see `speculationRules`).
        headers.add("Speculation-Rules", pages.speculationRules)
        // Inline style attributes carry the appearance and icon URLs; no inline script.
        headers.add(
            "Content-Security-Policy",
            "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
        )
        return HTTPResponse(status: status, headers: headers, body: .bytes(body))
    }

    /// A rendered page's answer to `request`. A page filled into shared memory goes out
    /// as it is, unless the browser takes gzip: the compression step packs built bytes.
    func html(_ page: RenderedPage, for request: HTTPRequest, status: HTTPStatus = .ok) -> HTTPResponse {
        guard case .filled = page, !request.acceptsGzip else { return html(page.bytes, status: status) }
        var response = html([], status: status)
        response.body = page.body
        return response
    }
}
