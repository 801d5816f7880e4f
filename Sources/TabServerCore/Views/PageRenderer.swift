// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerMustache
import TabServerSessions
import TabServerTabBar
import TabServerWeb

/// Turns pages into bytes: builds each template's context from the visitor's state and
/// renders the compiled templates (compiled once at start) into a byte buffer.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let basePath: String
    let appName: String
    let assets: Assets
    /// Whether pages register the service worker (`--service-worker`).
    let serviceWorker: Bool
    /// Tab bar values per arrangement: the same for every visitor with the same order,
    /// selection and badges, so built once rather than on every request.
    let barCache = RenderCache<BarKey, MustacheValue>(capacity: 4096)

    /// Whole tab pages of cacheable content, per arrangement (about 9 KB each).
    let pageCache = RenderCache<PageKey, TokenizedPage>(capacity: 512)

    struct PageKey: Hashable, Sendable {
        let bar: BarKey
        let template: String
        let tabID: String
        let tabTitle: String
        let location: String
        let content: String
        /// The accessory's `cacheKey` (nil: none shown).
        let accessory: String?
    }

    struct BarKey: Hashable, Sendable {
        let generation: Int
        let order: [String]?
        let selected: String?
        let badges: [String: BadgeOverride]
        let onMorePage: Bool
        let language: String
        /// The visitor's sidebar choice (the toggle's label and the layout it names).
        let sidebarHidden: Bool?
        /// The visitor's hide and show choices (which tabs the bar leaves out).
        let hiddenChoices: [String: Bool]
        /// The sidebar groups the visitor collapsed.
        let collapsedGroups: [String]
    }

    /// URLs of the shipped assets, with content hashes, computed once.
    struct Assets: Sendable {
        let css: String
        /// The floating bar's styles and its scrub gesture (`"barStyle": "floating"`).
        let barCSS: String
        let script: String
        let scrubScript: String
        let liveScript: String
        /// Registers the service worker and shows the app badge.
        let installScript: String
        /// The service worker, at the base path's root (its scope); not versioned, since
        /// the browser checks it for updates itself.
        let worker: String
        /// The worker's scope: the whole app.
        let workerScope: String
        let manifest: String
        let favicon: String
        let appleTouchIcon: String
        let icons: [String: String]
        /// Every static file's URL by path (for the appearance's background image).
        let all: [String: String]

        init(files: StaticFiles, basePath: String) {
            css = files.url(for: "css/app.css", prefix: basePath)
            barCSS = files.url(for: "css/floating-bar.css", prefix: basePath)
            script = files.url(for: "js/app.js", prefix: basePath)
            scrubScript = files.url(for: "js/tab-scrub.js", prefix: basePath)
            liveScript = files.url(for: "js/live.js", prefix: basePath)
            installScript = files.url(for: "js/install.js", prefix: basePath)
            worker = basePath + InstalledAppFiles.workerPath
            workerScope = basePath + "/"
            // Generated per language (its shortcuts' titles), revalidated by the browser.
            manifest = basePath + InstalledAppFiles.manifestPath
            favicon = files.url(for: "icons/app.svg", prefix: basePath)
            appleTouchIcon = files.url(for: "icons/apple-touch-icon.png", prefix: basePath)
            var icons: [String: String] = [:]
            for path in files.paths where path.hasPrefix("icons/") {
                icons[String(path.dropFirst("icons/".count))] = files.url(for: path, prefix: basePath)
            }
            self.icons = icons
            var all: [String: String] = [:]
            for path in files.paths { all[path] = files.url(for: path, prefix: basePath) }
            self.all = all
        }
    }

    /// The expected size of a page, so the buffer rarely grows while rendering.
    private static let initialCapacity = 16 * 1024

    func render(_ template: String, _ context: MustacheValue) -> [UInt8] {
        var buffer = [UInt8]()
        buffer.reserveCapacity(Self.initialCapacity)
        if !library.render(template, context, into: &buffer) {
            // Every model change is validated against the templates (`TabModelValidator`),
            // so this means the library and the model disagree: say so rather than crash.
            buffer.removeAll(keepingCapacity: true)
            buffer.append(
                contentsOf: "<!doctype html><title>Missing template</title><p>A page template is missing.</p>\n".utf8)
        }
        return buffer
    }

    // MARK: Pages

    func tabPage(
        tab: Tab, page: TabPage, location: String, session: Session, model: ModelSnapshot, notice: Notice?,
        language: Language, accessory: TabAccessory? = nil
    ) -> RenderedPage {
        // A page whose content says it is the same for everyone is rendered once per tab
        // bar arrangement; only the visitor's CSRF token differs, and it is written into
        // the cached bytes (see `TokenizedPage`). A notice makes the page one-off, and so
        // does an accessory without a cache key.
        if notice == nil, let contentKey = page.cacheKey, accessory == nil || accessory?.cacheKey != nil {
            let key = PageKey(
                bar: barKey(session.state, model: model, onMorePage: false, language: language), template: tab.template,
                tabID: tab.id,
                tabTitle: tab.title, location: location, content: contentKey, accessory: accessory?.cacheKey)
            let cached = pageCache.value(for: key) {
                var placeholder = session
                placeholder.csrfToken = TokenizedPage.placeholder
                return TokenizedPage(
                    bytes: renderTabPage(
                        tab: tab, page: page, location: location, session: placeholder, model: model, notice: nil,
                        language: language, accessory: accessory))
            }
            return .filled(cached.filled(with: session.csrfToken), template: cached, token: session.csrfToken)
        }
        return .built(
            renderTabPage(
                tab: tab, page: page, location: location, session: session, model: model, notice: notice,
                language: language, accessory: accessory))
    }

    private func renderTabPage(
        tab: Tab, page: TabPage, location: String, session: Session, model: ModelSnapshot, notice: Notice?,
        language: Language, accessory: TabAccessory?
    ) -> [UInt8] {
        let path = TabServerResponder.tabPath(tab.id, location)
        var context = common(
            title: page.title, path: path, session: session, model: model,
            onMorePage: false, notice: notice, language: language)
        if !page.hidesBottomBar, let accessory {
            context["accessory"] = accessoryValue(accessory, session: session, path: path)
        }
        context["tab"] = ["id": .string(tab.id), "title": .string(tab.title)]
        context["page"] = page.context
        if page.hidesBottomBar { context["hidesBar"] = true }
        if tab.role == .search, let id = model.controller.searchReturnTabID(in: session.state) {
            // Cancel returns to the tab selected before the search (iOS 26). With the
            // floating bar it is drawn as that tab's circle beside the field in the bar.
            let icon = model.controller.model.tab(id: id).map { assets.icons[$0.icon(selected: true)] ?? "" } ?? ""
            context["searchCancel"] = [
                "id": .string(id), "action": .string(basePath + "/select"), "label": .string(language.text("cancel")),
                "icon": .string(icon),
            ]
        }
        if let contentLanguage = page.language, contentLanguage != language.code {
            context["contentLanguage"] = .string(contentLanguage)
        }
        if let parent = page.parentLocation {
            context["back"] = [
                "href": .string(basePath + TabServerResponder.tabPath(tab.id, parent)),
                "title": .string(page.parentTitle ?? tab.title),
            ]
        } else if let group = model.controller.model.declaredGroup(ofTab: tab.id) {
            // A child of a declared group is pushed onto the group's stack: its root page
            // goes back to the group's list (in the bar layouts; the sidebar lists it itself).
            context["back"] = [
                "href": .string(basePath + TabServerResponder.tabPath(group.id, "")),
                "title": .string(group.title(in: language)), "toGroup": true,
            ]
        } else if let back = moreBack(tab.id, session: session, model: model, language: language) {
            context["back"] = back
        }
        return render("tabs/\(tab.template)", .object(context))
    }

    /// The back item to More of a tab (or a declared group) that lives in More: it is pushed
    /// onto More's stack, as UIKit's moreNavigationController does, at the widths where it
    /// is in More. Nil where it is in the bar.
    private func moreBack(_ id: String, session: Session, model: ModelSnapshot, language: Language) -> MustacheValue? {
        guard let item = model.controller.layout(session.state).items.first(where: { $0.tab.id == id }),
            !item.inCompactBar
        else { return nil }
        return [
            "href": .string(basePath + "/more"), "title": .string(language.text("more")),
            "toMore": true, "onlyCompact": .bool(item.inRegularBar),
        ]
    }

    /// A declared group's page (UIKit's `UITabGroup` as a tab): its children as rows, like
    /// More's list, each opening on the group's stack.
    func groupPage(
        _ group: TabGroup, session: Session, model: ModelSnapshot, notice: Notice?, language: Language,
        accessory: TabAccessory? = nil
    ) -> [UInt8] {
        let path = TabServerResponder.tabPath(group.id, "")
        var context = common(
            title: group.title(in: language), path: path, session: session, model: model,
            onMorePage: false, notice: notice, language: language)
        if let accessory { context["accessory"] = accessoryValue(accessory, session: session, path: path) }
        if let back = moreBack(group.id, session: session, model: model, language: language) { context["back"] = back }
        let layout = model.controller.layout(session.state)
        let rows: [MustacheValue] = layout.items.filter { $0.groupID == group.id }.map { entry in
            guard case .object(var fields) = item(item: entry, count: layout.count, language: language) else {
                return .null
            }
            fields["regularMore"] = true
            return .object(fields)
        }
        context["groupPage"] = ["items": .array(rows), "listPath": .string(path), "id": .string(group.id)]
        return render("pages/group", .object(context))
    }

    func morePage(
        session: Session, model: ModelSnapshot, notice: Notice?, language: Language, localizer: Localizer,
        accessory: TabAccessory? = nil, push: [String: String]? = nil
    ) -> [UInt8] {
        var context = common(
            title: language.text("more"), path: "/more", session: session, model: model, onMorePage: true,
            notice: notice, language: language)
        if let push { context["push"] = .object(push.mapValues { .string($0) }) }
        if let accessory { context["accessory"] = accessoryValue(accessory, session: session, path: "/more") }
        let layout = model.controller.layout(session.state)
        context["more"] = [
            "items": .array(layout.compactMoreItems.map { item(item: $0, count: layout.count, language: language) }),
            "listPath": "/more",
            "editHref": .string(basePath + "/more/edit"),
            "languageAction": .string(basePath + "/language"),
            "languages": .array(
                [
                    [
                        "code": "auto", "name": .string(language.text("languageAutomatic")),
                        "selected": .bool(session.language == nil),
                    ]
                ]
                    + localizer.codes.compactMap { code in
                        guard let option = localizer.languages[code] else { return nil }
                        return [
                            "code": .string(code), "name": .string(option.name),
                            "selected": .bool(session.language == code),
                        ]
                    }),
        ]
        return render("pages/more", .object(context))
    }

    /// The customize sheet (More → Edit tabs). It describes the arrangement at both
    /// widths, and CSS shows the one the visitor sees: the phone's bar of 4 + More, and
    /// the regular bar where every tab up to eight fits.
    func customizePage(session: Session, model: ModelSnapshot, notice: Notice?, message: String?, language: Language)
        -> [UInt8]
    {
        var context = common(
            title: language.text("editTabs"), path: "/more/edit", session: session, model: model, onMorePage: true,
            notice: notice, language: language)
        let controller = model.controller
        let layout = controller.layout(session.state)
        let isMovable = { (tab: Tab) in !tab.isFixedInPlace }
        let customizable = layout.items.filter { isMovable($0.tab) }.map(\.tab.id)
        let firstMore = layout.compactMoreItems.first { isMovable($0.tab) }
        let lastBar = layout.compactBarItems.last { isMovable($0.tab) }
        func title(_ item: TabBarLayout.Item?) -> String {
            guard let item else { return "" }
            return language.tabTitles[item.tab.id] ?? item.tab.title
        }
        func row(_ entry: TabBarLayout.Item, compact: Bool) -> MustacheValue {
            let id = entry.tab.id
            let isCustomizable = isMovable(entry.tab)
            let name = title(entry)
            let canToMore = compact && isCustomizable && layout.showsMoreCompact && entry.inCompactBar
            let canToBar = compact && isCustomizable && !entry.inCompactBar
            var swap: String? = nil
            if canToMore, firstMore != nil { swap = language.text("swapHint", ["other": title(firstMore)]) }
            if canToBar, lastBar != nil { swap = language.text("swapHint", ["other": title(lastBar)]) }
            return [
                "id": .string(id), "title": .string(name), "prefix": .string(compact ? "c" : "r"),
                "upLabel": .string(language.text("moveUp", ["title": name])),
                "downLabel": .string(language.text("moveDown", ["title": name])),
                "icon": .string(assets.icons[entry.tab.icon] ?? ""),
                "position": .int(entry.position), "fixed": .bool(!isCustomizable),
                "canUp": .bool(isCustomizable && customizable.first != id),
                "canDown": .bool(isCustomizable && customizable.last != id),
                "canToMore": .bool(canToMore), "canToBar": .bool(canToBar),
                "swapHint": swap.map(MustacheValue.string) ?? .null,
                "canHide": .bool(entry.tab.isHideable),
                "pinned": .bool(entry.tab.isTrailing && entry.tab.role != .search),
                "sidebarOnly": .bool(entry.isSidebarOnly),
            ]
        }
        // Hidden tabs, with a Show button each (UIKit's tabs hidden in the customizing sheet).
        let hidden: [MustacheValue] = controller.hiddenTabIDs(session.state).compactMap { id in
            guard let tab = controller.model.tab(id: id) else { return nil }
            let name = language.tabTitles[id] ?? tab.title
            return [
                "id": .string(id), "title": .string(name), "icon": .string(assets.icons[tab.icon] ?? ""),
            ]
        }
        // Sidebar-only and pinned tabs are not in either list of the bar: listed apart.
        let sidebarItems = layout.items.filter { $0.isSidebarOnly && $0.groupID == nil }.map { row($0, compact: false) }
        // A declared group that allows reordering: its children, moved among themselves
        // (UITabGroup's allowsReordering) with the same up and down buttons.
        let groups: [MustacheValue] = controller.model.groups.filter(\.allowsReordering).map { group in
            let children = layout.items.filter { $0.groupID == group.id }
            let rows: [MustacheValue] = children.map { entry in
                guard case .object(var fields) = row(entry, compact: false) else { return .null }
                fields["prefix"] = "g"
                fields["fixed"] = false
                fields["canUp"] = .bool(children.first?.tab.id != entry.tab.id)
                fields["canDown"] = .bool(children.last?.tab.id != entry.tab.id)
                fields["canHide"] = false
                return .object(fields)
            }
            return [
                "id": .string(group.id), "title": .string(group.title(in: language)),
                "rows": .array(rows),
            ]
        }
        let version = LayoutFingerprint.of(controller.arrangement(session.state))
        context["customize"] = [
            "version": .string(version),
            "compact": [
                "barItems": .array(layout.compactBarItems.map { row($0, compact: true) }),
                "moreItems": .array(layout.compactMoreItems.map { row($0, compact: true) }),
                "hasMore": .bool(layout.showsMoreCompact),
            ],
            "regular": [
                "barItems": .array(layout.regularBarItems.map { row($0, compact: false) }),
                "moreItems": .array(layout.regularMoreItems.map { row($0, compact: false) }),
                "hasMore": .bool(layout.showsMoreRegular),
                "widthNote": layout.showsMoreCompact
                    ? .string(
                        language.text(
                            "widthNote",
                            ["count": String(TabBarLayout.barCount(forTabCount: layout.count, capacity: 5))]))
                    : .null,
            ],
            "action": .string(basePath + "/more/edit"),
            "isDefault": .bool(session.state.order == nil && session.state.hiddenChoices.isEmpty),
            "hidden": .array(hidden), "hasHidden": .bool(!hidden.isEmpty),
            "sidebarItems": .array(sidebarItems), "hasSidebarItems": .bool(!sidebarItems.isEmpty),
            "groups": .array(groups),
        ]
        if let message { context["message"] = .string(language.translate(message)) }
        return render("pages/customize", .object(context))
    }

    /// The question an action asks before it runs: Confirm posts the same form to the same
    /// address again, confirmed; Cancel goes back to `cancelLocation` in the tab.
    func confirmationPage(
        question: String, tab: Tab, location: String, cancelLocation: String, fields: [(name: String, value: String)],
        session: Session, model: ModelSnapshot, language: Language
    ) -> [UInt8] {
        var context = common(
            title: tab.title, path: TabServerResponder.tabPath(tab.id, location), session: session, model: model,
            onMorePage: false, notice: nil, language: language)
        context["question"] = [
            "message": Self.isolating(question),
            "action": .string(basePath + TabServerResponder.tabPath(tab.id, location)),
            "cancelHref": .string(basePath + TabServerResponder.tabPath(tab.id, cancelLocation)),
            "fields": .array(fields.map { ["name": .string($0.name), "value": .string($0.value)] }),
        ]
        return render("pages/confirm", .object(context))
    }

    func errorPage(_ error: HTTPError, session: Session?, model: ModelSnapshot, language: Language) -> [UInt8] {
        var context: [String: MustacheValue]
        let reason = language.statusReason(error.status.code, english: error.status.reason)
        if let session {
            context = common(
                title: reason, path: nil, session: session, model: model, onMorePage: false, notice: nil,
                language: language)
        } else {
            context = chrome(title: reason, model: model, language: language)
        }
        context["error"] = [
            "code": .int(error.status.code), "reason": .string(reason),
            "message": Self.isolating(language.translate(error.message)),
            "field": error.field.map(MustacheValue.string) ?? .null,
            "homeHref": .string(basePath.isEmpty ? "/" : basePath + "/"),
        ]
        return render("pages/error", .object(context))
    }

    /// The page a service worker shows for a page it has not kept, offline: the bar (so
    /// any kept tab is a tap away) and what happened, in the visitor's language.
    func offlinePage(session: Session, model: ModelSnapshot, language: Language) -> [UInt8] {
        var context = common(
            title: language.text("offlineTitle"), path: nil, session: session, model: model, onMorePage: false,
            notice: nil, language: language)
        context["offline"] = ["message": .string(language.text("offlineMessage"))]
        return render("pages/offline", .object(context))
    }

    /// The bottom accessory rendered from its template, with the form values its forms
    /// need (`csrf`, `returnPath`, each action's URL under `actions`); null when its
    /// template is missing (the page shows without it rather than fail).
    private func accessoryValue(_ accessory: TabAccessory, session: Session, path: String) -> MustacheValue {
        var fields: [String: MustacheValue]
        if case .object(let given) = accessory.context { fields = given } else { fields = ["value": accessory.context] }
        fields["csrf"] = .string(session.csrfToken.text)
        fields["returnPath"] = .string(path)
        var actions: [String: MustacheValue] = [:]
        for name in accessory.actions.keys { actions[name] = .string(basePath + "/accessory/" + name) }
        fields["actions"] = .object(actions)
        var buffer = [UInt8]()
        guard library.render("accessories/" + accessory.template, .object(fields), into: &buffer) else { return .null }
        return ["label": .string(accessory.label), "html": .string(String(decoding: buffer, as: UTF8.self))]
    }

    // MARK: Shared parts

    /// What every page has: head, appearance, and (with a session) the tab bar.
    private func chrome(title: String, model: ModelSnapshot, language: Language) -> [String: MustacheValue] {
        [
            "lang": .string(language.code), "dir": .string(language.direction), "t": language.templateValue,
            "appName": .string(appName), "title": .string(title), "base": .string(basePath),
            "css": .string(assets.css), "script": .string(assets.script),
            "barCSS": .string(assets.barCSS), "scrubScript": .string(assets.scrubScript),
            "liveScript": .string(assets.liveScript), "installScript": .string(assets.installScript),
            "worker": serviceWorker ? .string(assets.worker) : .null, "workerScope": .string(assets.workerScope),
            "manifest": .string(assets.manifest + "?lang=" + language.code),
            "favicon": .string(assets.favicon), "appleTouchIcon": .string(assets.appleTouchIcon),
            "themeColor": .string(model.controller.model.appearance.tint),
            "themeColorDark": .string(model.controller.model.appearance.effectiveDarkTint),
            "appearance": .string(appearanceStyle(model)), "appearanceClasses": .string(model.appearanceClasses),
        ]
    }

    /// The appearance's custom properties, with the background image's URL (which
    /// needs the base path and the file's content hash) when there is one.
    private func appearanceStyle(_ model: ModelSnapshot) -> String {
        guard let image = model.controller.model.appearance.backgroundImage, let url = assets.all[image] else {
            return model.appearanceCSS
        }
        return model.appearanceCSS + ";--tab-background-image:url('\(url)')"
    }

    private func common(
        title: String, path: String?, session: Session, model: ModelSnapshot, onMorePage: Bool, notice: Notice?,
        language: Language
    ) -> [String: MustacheValue] {
        var context = chrome(title: title, model: model, language: language)
        context["csrf"] = .string(session.csrfToken.text)
        // Where a tap on this page happened: a refusal or a question is shown here.
        if let path {
            context["returnPath"] = .string(path)
            if let transition = PageTransitionStyle.css(forPath: path) {
                context["pageTransition"] = .string(transition)
            }
        }
        context["onMorePage"] = .bool(onMorePage)
        let state = session.state
        context["bar"] = barCache.value(for: barKey(state, model: model, onMorePage: onMorePage, language: language)) {
            bar(
                model.controller.layout(state), controller: model.controller, onMorePage: onMorePage,
                language: language,
                sidebarToggle: sidebarToggle(state, model: model, language: language),
                collapsedGroups: state.collapsedGroups)
        }
        if state.isSidebarHidden != nil, model.controller.model.appearance.allowsSidebarToggle {
            // The visitor's choice of sidebar or bar decides the layout classes.
            context["appearanceClasses"] = .string(
                model.controller.model.appearance.cssClasses(sidebarHidden: state.isSidebarHidden))
        }
        if let notice {
            var value: [String: MustacheValue] = ["message": Self.isolating(language.translate(notice.message))]
            if let id = notice.confirmTabID, let tab = model.controller.model.tab(id: id) {
                let title = language.tabTitles[tab.id] ?? tab.title
                value["confirm"] = [
                    "id": .string(tab.id), "label": .string(language.text("open", ["title": title])),
                    "cancelHref": .string(basePath + (path ?? "/")),
                ]
            }
            context["notice"] = .object(value)
        }
        return context
    }

    private func barKey(_ state: TabBarState, model: ModelSnapshot, onMorePage: Bool, language: Language) -> BarKey {
        BarKey(
            generation: model.generation, order: state.order, selected: state.selectedTabID,
            badges: state.badgeOverrides, onMorePage: onMorePage, language: language.code,
            sidebarHidden: state.isSidebarHidden, hiddenChoices: state.hiddenChoices,
            collapsedGroups: state.collapsedGroups)
    }

    /// The sidebar toggle's form values (1024 px and wider), when the appearance offers it:
    /// the state it asks for and its label.
    private func sidebarToggle(_ state: TabBarState, model: ModelSnapshot, language: Language) -> MustacheValue {
        guard model.controller.model.appearance.allowsSidebarToggle else { return .null }
        let shown = model.controller.showsSidebar(state)
        return [
            "action": .string(basePath + "/sidebar"), "value": .string(shown ? "hide" : "show"),
            "label": .string(language.text(shown ? "hideSidebar" : "showSidebar")), "shown": .bool(shown),
        ]
    }

    private func bar(
        _ layout: TabBarLayout, controller: TabBarController, onMorePage: Bool, language: Language,
        sidebarToggle: MustacheValue, collapsedGroups: [String] = []
    ) -> MustacheValue {
        let positions = BarPositions(layout)
        func label(_ position: (Int, Int)?) -> MustacheValue {
            guard let (position, count) = position else { return .null }
            return .string(language.text("tabPosition", ["position": String(position), "count": String(count)]))
        }
        func barItem(_ offset: Int, _ entry: TabBarLayout.Item) -> MustacheValue {
            var value = item(item: entry, count: layout.count, onMorePage: onMorePage, language: language)
            guard case .object(var fields) = value else { return value }
            // What a screen reader says: the place among the items on screen at each width.
            fields["compactPositionLabel"] = label(positions.compact[entry.tab.id])
            fields["regularPositionLabel"] = label(positions.regular[entry.tab.id])
            if entry.isGroup { fields["isGroup"] = true }
            // The first tab of a group carries the group's heading (sidebar layout).
            if let group = entry.tab.group {
                let collapsed = collapsedGroups.contains(group)
                if offset == 0 || layout.items[offset - 1].tab.group != group {
                    // A declared group's heading is its title.
                    let heading =
                        controller.model.group(id: group)?.title(in: language) ?? language.messages[group] ?? group
                    // A button of the bar's form: it posts the form's token and return path.
                    fields["group"] = [
                        "title": .string(heading),
                        "name": .string(group),
                        "collapsed": .bool(collapsed), "action": .string(basePath + "/sidebar/group"),
                        "id": .string("group-" + String(offset)),
                    ]
                }
                if collapsed { fields["inCollapsedGroup"] = true }
            }
            value = .object(fields)
            return value
        }
        let indexed = Array(layout.items.enumerated())
        // Pinned tabs and the search tab come after More, in the markup as on screen, so
        // reading order is the screen's.
        let trailing = indexed.filter { $0.element.tab.isTrailing }
        return [
            "items": .array(indexed.filter { !$0.element.tab.isTrailing }.map { barItem($0.offset, $0.element) }),
            "searchItem": trailing.isEmpty ? .null : .array(trailing.map { barItem($0.offset, $0.element) }),
            "moreCompact": .bool(layout.showsMoreCompact),
            "moreRegular": .bool(layout.showsMoreRegular),
            "moreSelectedCompact": .bool(onMorePage || layout.isMoreSelected),
            "moreSelectedRegular": .bool(onMorePage || layout.isMoreSelectedRegular),
            "moreCompactPositionLabel": label(positions.moreCompact),
            "moreRegularPositionLabel": label(positions.moreRegular),
            "moreHref": .string(basePath + "/more"),
            "moreAction": .string(basePath + "/more/open"),
            "action": .string(basePath + "/select"),
            "count": .int(layout.count + (layout.showsMoreCompact ? 1 : 0)),
            "sidebarToggle": sidebarToggle,
        ]
    }

    private func item(item: TabBarLayout.Item, count: Int, onMorePage: Bool = false, language: Language)
        -> MustacheValue
    {
        var value: [String: MustacheValue] = [
            "id": .string(item.tab.id), "title": .string(language.tabTitles[item.tab.id] ?? item.tab.title),
            "search": .bool(item.tab.role == .search),
            "positionLabel": .string(
                language.text("tabPosition", ["position": String(item.position), "count": String(count)])),
            "icon": .string(assets.icons[item.icon] ?? ""),
            "selected": .bool(item.isSelected && !onMorePage), "disabled": .bool(!item.tab.isEnabled),
            "position": .int(item.position), "count": .int(count),
            "compactMore": .bool(!item.inCompactBar), "regularMore": .bool(!item.inRegularBar),
            "sidebarOnly": .bool(item.isSidebarOnly),
            "pinned": .bool(item.tab.preferredPlacement == .pinned),
        ]
        if let badge = item.badge {
            let label = if case .dot = badge.value { language.text("badgeDot") } else { badge.accessibleText }
            var badgeValue: [String: MustacheValue] = [
                "text": .string(language.messages[badge.displayText] ?? badge.displayText),
                "label": .string(language.messages[label] ?? label),
            ]
            if case .dot = badge.value { badgeValue["dot"] = true }
            // The exact number, for the app badge (the sum of the counts: install.js).
            if case .count(let count) = badge.value { badgeValue["exactCount"] = .string(String(count)) }
            // Longer than two letters: wider than the room beside the icon on a phone.
            if case .text = badge.value, (language.messages[badge.displayText] ?? badge.displayText).count > 2 {
                badgeValue["wide"] = true
            }
            if let color = badge.color { badgeValue["color"] = .string(color) }
            value["badge"] = .object(badgeValue)
        }
        return .object(value)
    }

    /// A text made of parts, where the parts marked `isolated` (names of tabs, text
    /// from elsewhere) are rendered in `<bdi>`, so punctuation and direction of the
    /// surrounding sentence stay right in a right-to-left page.
    static func isolating(_ text: String) -> MustacheValue {
        .array(IsolatedText.parts(of: text).map { ["text": .string($0.text), "isolated": .bool($0.isolated)] })
    }
}
