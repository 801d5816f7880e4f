// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerViews
import TabServerWeb

extension TabServerResponder {
    /// More, its Edit (customization) and the language picker.
    static func addMoreRoutes(to router: Router<RequestContext>) {
        router.on(.get, "/more", use: library { app, _, _, state throws(HTTPError) in try app.morePage(&state) })
        router.on(
            .post, "/more/open", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.openMore(request, state: &state)
            })
        router.on(
            .get, "/more/edit",
            use: library { app, _, _, state throws(HTTPError) in
                try app.customizePage(&state)
            })
        router.on(
            .post, "/more/edit", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.customize(request, state: &state)
            })
        router.on(
            .post, "/language", crossSite: .checkedByHandler,
            use: library { app, request, _, state throws(HTTPError) in
                try app.chooseLanguage(request, state: &state)
            })
    }

    /// `GET /more`: the tabs that do not fit the bar (UIKit's `moreNavigationController`).
    func morePage(_ state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        // The list is More's root: its stack is empty while it shows.
        if !Self.isPrefetch(state.request) { session.state = state.controller.poppingMore(session.state) }
        var notice = takeNotice(&session, state: &state)
        notice = pendingQuestion(state.request, session) ?? notice
        let language = language(state.request, session)
        return html(
            pages.views.morePage(
                session: session, model: state.model, notice: notice, language: language,
                variant: pages.variant(state, language), localizer: pages.localizer,
                accessory: AccessoryRoutes.strip(self, session, language: language, state: state), push: pushOptIn()))
    }

    /// `POST /more/open`: a tap on the bar's More item (a button like the other items,
    /// so a screen reader counts it among them). As UIKit's `moreNavigationController`:
    /// More shows the tab left on its stack, where it was left (a declared group with its
    /// own stack); a tap while More is already selected pops to the list.
    func openMore(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        try verifyCSRF(request, state: state)
        let controller = state.controller
        // A declared group's child shows under its group, which may be in More.
        let selected = controller.selectedGroupID(session.state) ?? controller.selectedTabID(session.state)
        let onMore = request.formValue("return") == "/more" || controller.isInCompactMore(selected, in: session.state)
        if !onMore, let shown = controller.reopeningMoreStack(in: session.state) {
            session.state = shown.state
            state.session = session
            return redirect(to: TabPaths.tab(shown.tabID, shown.location))
        }
        session.state = controller.poppingMore(session.state)
        state.session = session
        return redirect(to: "/more")
    }

    /// `GET /more/edit`: the customize sheet. Opening it starts customizing (the
    /// `willBeginCustomizing` hook) unless the visitor is already at it.
    func customizePage(_ state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        let controller = state.controller
        // A prefetch (live.js redrawing the bar) is not the visitor opening the sheet.
        if session.customizationStart == nil, !Self.isPrefetch(state.request) {
            session.customizationStart = controller.arrangement(session.state)
            state.record(.willBeginCustomizing(session.state))
        }
        let notice = takeNotice(&session, state: &state)
        let language = language(state.request, session)
        return html(
            pages.views.customizePage(
                session: session, model: state.model, notice: notice, message: nil, language: language,
                variant: pages.variant(state, language)))
    }

    /// `POST /more/edit`: one customization step (move up/down, into the bar or More,
    /// reset) or Done. Each answers 303; a post from an out-of-date page answers 409
    /// with the current arrangement and changes nothing.
    func customize(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        try verifyCSRF(request, state: state)
        let controller = state.controller
        let actionName = try request.requiredField("action")
        if actionName == "done" {
            let start = session.customizationStart ?? controller.arrangement(session.state)
            session.customizationStart = nil
            state.record(
                .didEndCustomizing(session.state, changed: start != controller.arrangement(session.state)))
            state.session = session
            return redirect(to: "/more")
        }
        let posted = try request.requiredField("version")
        let action = try Self.customizationAction(actionName, request: request)
        let current = LayoutFingerprint.of(controller.arrangement(session.state))
        let before = controller.layout(session.state)
        do {
            // The arrangement the form was made for must still be the visitor's.
            let expected = posted == current ? session.state.version : session.state.version &- 1
            session.state = try controller.apply(action, to: session.state, expectedVersion: expected)
        } catch {
            let failure = HTTPError(error)
            if error.isStale {
                // Show the arrangement as it is now, so the visitor can decide again.
                state.discardChanges()
                let current = state.session ?? session
                let language = language(state.request, current)
                return html(
                    pages.views.customizePage(
                        session: current, model: state.model, notice: nil, message: failure.message,
                        language: language, variant: pages.variant(state, language)),
                    status: failure.status)
            }
            throw failure
        }
        if session.customizationStart == nil {
            session.customizationStart = controller.arrangement(state.loaded?.state ?? session.state)
        }
        let after = controller.layout(session.state)
        session.notice = Self.describe(action, before: before, after: after, language: language(request, session))
        state.session = session
        state.arrangementChanged = true
        return redirect(to: "/more/edit" + Self.focusFragment(action, view: request.formValue("view"), after: after))
    }

    /// The fragment of the control that keeps focus after a step (the browser focuses
    /// and scrolls to it): the pressed button if it still applies, else its row's next
    /// one. `view` says which list was used: `c` (phone) or `r` (regular width).
    static func focusFragment(_ action: CustomizationAction, view: String?, after: TabBarLayout) -> String {
        let prefix = view == "r" ? "r" : "c"
        let tab: String
        let pressed: String
        switch action {
        case .moveUp(let id): (tab, pressed) = (id, "up")
        case .moveDown(let id): (tab, pressed) = (id, "down")
        case .moveToBar(let id): (tab, pressed) = (id, "bar")
        case .moveToMore(let id): (tab, pressed) = (id, "more")
        case .hide(let id):
            // The row is gone from the lists: focus its Show button among the hidden tabs.
            return after.items.contains { $0.tab.id == id } ? "" : "#show-\(id)"
        case .show(let id):
            return after.items.contains { $0.tab.id == id } ? "#\(prefix)-row-\(id)" : ""
        case .reset, .setOrder: return ""
        }
        guard let index = after.items.firstIndex(where: { $0.tab.id == tab }) else { return "" }
        if let group = after.items[index].groupID {
            // A child moved within its group's list of Edit.
            let children = after.items.filter { $0.groupID == group }
            let canUp = children.first?.tab.id != tab
            let canDown = children.last?.tab.id != tab
            return "#g-\(pressed == "up" ? (canUp ? "up" : "down") : (canDown ? "down" : "up"))-\(tab)"
        }
        let customizable = after.items.filter { !$0.tab.isFixedInPlace }
        let canUp = customizable.first?.tab.id != tab
        let canDown = customizable.last?.tab.id != tab
        let item = after.items[index]
        let choice: String
        switch pressed {
        case "up": choice = canUp ? "up" : "down"
        case "down": choice = canDown ? "down" : "up"
        // The button changes to its opposite: focus it, so a second press undoes the step.
        case "bar": choice = item.inCompactBar && after.showsMoreCompact ? "more" : "up"
        default: choice = item.inCompactBar ? "more" : "bar"
        }
        return "#\(prefix)-\(choice)-\(tab)"
    }

    /// What a step did, for the status message above the lists: a move between the bar
    /// and More names the tab that took the other place.
    static func describe(_ action: CustomizationAction, before: TabBarLayout, after: TabBarLayout, language: Language)
        -> Notice?
    {
        func title(_ id: String) -> String {
            language.tabTitles[id] ?? (before.items + after.items).first { $0.tab.id == id }?.tab.title ?? id
        }
        let barBefore = Set(before.compactBarItems.map(\.tab.id))
        let barAfter = Set(after.compactBarItems.map(\.tab.id))
        switch action {
        case .moveToMore(let id), .moveToBar(let id), .moveUp(let id), .moveDown(let id):
            let entered = barAfter.subtracting(barBefore).first
            let left = barBefore.subtracting(barAfter).first
            if let entered, let left {
                let isToMore = left == id
                let other = isToMore ? entered : left
                return Notice(
                    message: language.isolatedText(
                        isToMore ? "movedToMore" : "movedToBar", ["moved": title(id), "other": title(other)]))
            }
            if case .moveUp = action { return Notice(message: language.isolatedText("movedUp", ["moved": title(id)])) }
            if case .moveDown = action {
                return Notice(message: language.isolatedText("movedDown", ["moved": title(id)]))
            }
            return nil
        case .hide(let id):
            return Notice(message: language.isolatedText("tabHidden", ["moved": title(id)]))
        case .show(let id):
            return Notice(message: language.isolatedText("tabShown", ["moved": title(id)]))
        case .reset:
            return Notice(message: language.text("resetDone"))
        case .setOrder:
            return nil
        }
    }

    /// The action a customize form names, or a 400 naming the field.
    static func customizationAction(_ name: String, request: HTTPRequest) throws(HTTPError) -> CustomizationAction {
        switch name {
        case "reset": return .reset
        case "order":
            let ids = request.formFields.filter { $0.name == "order" }.map(\.value)
            guard !ids.isEmpty else { throw HTTPError.badRequest("The form field 'order' is missing.", field: "order") }
            return .setOrder(ids)
        case "up", "down", "bar", "more", "hide", "show":
            let tab = try request.requiredField("tab")
            switch name {
            case "up": return .moveUp(tab)
            case "down": return .moveDown(tab)
            case "bar": return .moveToBar(tab)
            case "hide": return .hide(tab)
            case "show": return .show(tab)
            default: return .moveToMore(tab)
            }
        default:
            throw HTTPError.badRequest(
                "Unknown action “\(name.prefix(40))”: use up, down, bar, more, hide, show, reset, order or done.",
                field: "action")
        }
    }
}

extension TabServerResponder {
    /// `POST /language`: the visitor's explicit language ("auto" goes back to the
    /// browser's preference). 303 back to More.
    func chooseLanguage(_ request: HTTPRequest, state: inout RequestState) throws(HTTPError) -> HTTPResponse {
        var session = try visitor(&state)
        try verifyCSRF(request, state: state)
        let code = try request.requiredField("lang")
        if code == "auto" {
            session.language = nil
        } else if pages.localizer.languages[code] != nil {
            session.language = code
        } else {
            throw HTTPError.badRequest(
                "There is no language “\(code.prefix(20))”: use auto or one of \(pages.localizer.codes.joined(separator: ", ")).",
                field: "lang")
        }
        state.session = session
        state.arrangementChanged = true
        return redirect(to: "/more")
    }

    /// The language of this visitor's pages.
    func language(_ request: HTTPRequest, _ session: Session?) -> Language {
        pages.localizer.negotiate(acceptLanguage: request.headers["accept-language"], chosen: session?.language)
    }
}
