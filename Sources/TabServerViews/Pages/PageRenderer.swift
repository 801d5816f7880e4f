// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerSessions
import TabServerTabBar
import TabServerWeb

/// Turns pages into bytes: builds each template's context from the visitor's state and
/// renders the compiled templates (compiled once at start) into a byte buffer.
package struct PageRenderer: Sendable {
    package let library: MustacheLibrary
    package let basePath: String
    package let appName: String
    package let assets: Assets
    /// Whether pages register the service worker (`--service-worker`).
    package let serviceWorker: Bool
    /// Whether pages load the development mode's script (`--dev`), which follows saved
    /// files over the live channel.
    package let development: Bool
    /// Tab bar values per arrangement: the same for every visitor with the same order,
    /// selection and badges, so built once rather than on every request.
    package let barCache = RenderCache<BarKey, MustacheValue>(capacity: 4096)

    /// Whole tab pages of cacheable content, per arrangement (about 9 KB each).
    package let pageCache = RenderCache<PageKey, TokenizedPage>(capacity: 512)

    package init(
        library: MustacheLibrary, basePath: String, appName: String, assets: Assets, serviceWorker: Bool,
        development: Bool = false
    ) {
        self.library = library
        self.basePath = basePath
        self.appName = appName
        self.assets = assets
        self.serviceWorker = serviceWorker
        self.development = development
    }

    package struct PageKey: Hashable, Sendable {
        let bar: BarKey
        let template: String
        let tabID: String
        let tabTitle: String
        let location: String
        let content: String
        /// The accessory's `cacheKey` (nil: none shown).
        let accessory: String?
    }

    package struct BarKey: Hashable, Sendable {
        /// The page's variant: its language, platform, the app's part, the model's generation.
        let variant: PageVariant
        let order: [String]?
        let selected: String?
        let badges: [String: BadgeOverride]
        let onMorePage: Bool
        /// The visitor's sidebar choice (the toggle's label and the layout it names).
        let sidebarHidden: Bool?
        /// The visitor's hide and show choices (which tabs the bar leaves out).
        let hiddenChoices: [String: Bool]
        /// The sidebar groups the visitor collapsed.
        let collapsedGroups: [String]
    }

    /// URLs of the shipped assets, with content hashes, computed once.
    package struct Assets: Sendable {
        let css: String
        /// The floating bar's styles and its scrub gesture (`"barStyle": "floating"`).
        let barCSS: String
        /// Material 3's bar and rail, for the pages of the Material platform.
        let materialCSS: String
        let script: String
        let scrubScript: String
        let liveScript: String
        /// Development mode's: reloads, swaps stylesheets and icons, shows errors.
        let devScript: String
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

        /// The scripts a page of development mode's own loads: the live channel and
        /// development mode's.
        package var developmentScripts: [String] { [liveScript, devScript] }

        package init(files: StaticFiles, basePath: String) {
            css = files.url(for: "css/app.css", prefix: basePath)
            barCSS = files.url(for: "css/floating-bar.css", prefix: basePath)
            materialCSS = files.url(for: "css/material.css", prefix: basePath)
            script = files.url(for: "js/app.js", prefix: basePath)
            scrubScript = files.url(for: "js/tab-scrub.js", prefix: basePath)
            liveScript = files.url(for: "js/live.js", prefix: basePath)
            devScript = files.url(for: "js/dev.js", prefix: basePath)
            installScript = files.url(for: "js/install.js", prefix: basePath)
            worker = basePath + TabPaths.worker
            workerScope = basePath + "/"
            // Generated per language (its shortcuts' titles), revalidated by the browser.
            manifest = basePath + TabPaths.manifest
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

    package func render(_ template: String, _ context: MustacheValue) -> [UInt8] {
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

    package func tabPage(
        tab: Tab, page: TabPage, location: String, session: Session, model: ModelSnapshot, notice: Notice?,
        language: Language, variant: PageVariant, accessory: TabAccessory? = nil
    ) -> RenderedPage {
        // A page whose content says it is the same for everyone is rendered once per tab
        // bar arrangement; only the visitor's CSRF token differs, and it is written into
        // the cached bytes (see `TokenizedPage`). A notice makes the page one-off, and so
        // does an accessory without a cache key.
        if notice == nil, let contentKey = page.cacheKey, accessory == nil || accessory?.cacheKey != nil {
            let key = PageKey(
                bar: barKey(session.state, onMorePage: false, variant: variant), template: tab.template,
                tabID: tab.id,
                tabTitle: tab.title, location: location, content: contentKey, accessory: accessory?.cacheKey)
            let cached = pageCache.value(for: key) {
                var placeholder = session
                placeholder.csrfToken = TokenizedPage.placeholder
                return TokenizedPage(
                    bytes: renderTabPage(
                        tab: tab, page: page, location: location, session: placeholder, model: model, notice: nil,
                        language: language, variant: variant, accessory: accessory))
            }
            return .filled(cached.filled(with: session.csrfToken), template: cached, token: session.csrfToken)
        }
        return .built(
            renderTabPage(
                tab: tab, page: page, location: location, session: session, model: model, notice: notice,
                language: language, variant: variant, accessory: accessory))
    }

    package func renderTabPage(
        tab: Tab, page: TabPage, location: String, session: Session, model: ModelSnapshot, notice: Notice?,
        language: Language, variant: PageVariant, accessory: TabAccessory?
    ) -> [UInt8] {
        let path = TabPaths.tab(tab.id, location)
        var context = common(
            title: page.title, path: path, session: session, model: model,
            onMorePage: false, notice: notice, language: language, variant: variant)
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
                "href": .string(basePath + TabPaths.tab(tab.id, parent)),
                "title": .string(page.parentTitle ?? tab.title),
            ]
        } else if let group = model.controller.model.declaredGroup(ofTab: tab.id) {
            // A child of a declared group is pushed onto the group's stack: its root page
            // goes back to the group's list (in the bar layouts; the sidebar lists it itself).
            context["back"] = [
                "href": .string(basePath + TabPaths.tab(group.id, "")),
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
    package func moreBack(_ id: String, session: Session, model: ModelSnapshot, language: Language) -> MustacheValue? {
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
    package func groupPage(
        _ group: TabGroup, session: Session, model: ModelSnapshot, notice: Notice?, language: Language,
        variant: PageVariant, accessory: TabAccessory? = nil
    ) -> [UInt8] {
        let path = TabPaths.tab(group.id, "")
        var context = common(
            title: group.title(in: language), path: path, session: session, model: model,
            onMorePage: false, notice: notice, language: language, variant: variant)
        if let accessory { context["accessory"] = accessoryValue(accessory, session: session, path: path) }
        if let back = moreBack(group.id, session: session, model: model, language: language) { context["back"] = back }
        let layout = model.controller.layout(session.state)
        let rows: [MustacheValue] = layout.items.filter { $0.groupID == group.id }.map { entry in
            guard
                case .object(var fields) = item(
                    item: entry, count: layout.count, language: language, platform: variant.platform)
            else {
                return .null
            }
            fields["regularMore"] = true
            return .object(fields)
        }
        context["groupPage"] = ["items": .array(rows), "listPath": .string(path), "id": .string(group.id)]
        return render("pages/group", .object(context))
    }

    /// The question an action asks before it runs: Confirm posts the same form to the same
    /// address again, confirmed; Cancel goes back to `cancelLocation` in the tab.
    package func confirmationPage(
        question: String, tab: Tab, location: String, cancelLocation: String, fields: [(name: String, value: String)],
        session: Session, model: ModelSnapshot, language: Language, variant: PageVariant
    ) -> [UInt8] {
        var context = common(
            title: tab.title, path: TabPaths.tab(tab.id, location), session: session, model: model,
            onMorePage: false, notice: nil, language: language, variant: variant)
        context["question"] = [
            "message": Self.isolating(question),
            "action": .string(basePath + TabPaths.tab(tab.id, location)),
            "cancelHref": .string(basePath + TabPaths.tab(tab.id, cancelLocation)),
            "fields": .array(fields.map { ["name": .string($0.name), "value": .string($0.value)] }),
        ]
        return render("pages/confirm", .object(context))
    }

    package func errorPage(
        _ error: HTTPError, session: Session?, model: ModelSnapshot, language: Language, variant: PageVariant
    ) -> [UInt8] {
        var context: [String: MustacheValue]
        let reason = language.statusReason(error.status.code, english: error.status.reason)
        if let session {
            context = common(
                title: reason, path: nil, session: session, model: model, onMorePage: false, notice: nil,
                language: language, variant: variant)
        } else {
            context = chrome(title: reason, model: model, language: language, variant: variant)
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
    package func offlinePage(session: Session, model: ModelSnapshot, language: Language, variant: PageVariant)
        -> [UInt8]
    {
        var context = common(
            title: language.text("offlineTitle"), path: nil, session: session, model: model, onMorePage: false,
            notice: nil, language: language, variant: variant)
        context["offline"] = ["message": .string(language.text("offlineMessage"))]
        return render("pages/offline", .object(context))
    }

    /// The bottom accessory rendered from its template, with the form values its forms
    /// need (`csrf`, `returnPath`, each action's URL under `actions`); null when its
    /// template is missing (the page shows without it rather than fail).
    package func accessoryValue(_ accessory: TabAccessory, session: Session, path: String) -> MustacheValue {
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
}
