import HTTPTypes
import Mustache
import Sessions
import TabBar
import Web

/// Turns pages into bytes: builds each template's context from the visitor's state and
/// renders the compiled templates (compiled once at start) into a byte buffer.
struct PageRenderer: Sendable {
    let library: MustacheLibrary
    let basePath: String
    let appName: String
    let assets: Assets
    /// Tab bar values per arrangement: the same for every visitor with the same order,
    /// selection and badges, so built once rather than on every request.
    let barCache = RenderCache<BarKey, MustacheValue>(capacity: 4096)

    /// Whole tab pages of cacheable content, per arrangement (about 6 KB each).
    let pageCache = RenderCache<PageKey, TokenizedPage>(capacity: 512)

    struct PageKey: Hashable, Sendable {
        let bar: BarKey
        let template: String
        let tabID: String
        let tabTitle: String
        let content: String
    }

    struct BarKey: Hashable, Sendable {
        let generation: Int
        let order: [String]?
        let selected: String?
        let badges: [String: BadgeOverride]
        let onMorePage: Bool
        let language: String
    }

    /// URLs of the shipped assets, with content hashes, computed once.
    struct Assets: Sendable {
        let css: String
        let script: String
        let liveScript: String
        let manifest: String
        let favicon: String
        let appleTouchIcon: String
        let icons: [String: String]

        init(files: StaticFiles, basePath: String) {
            css = files.url(for: "css/app.css", prefix: basePath)
            script = files.url(for: "js/app.js", prefix: basePath)
            liveScript = files.url(for: "js/live.js", prefix: basePath)
            manifest = files.url(for: "manifest.webmanifest", prefix: basePath)
            favicon = files.url(for: "icons/app.svg", prefix: basePath)
            appleTouchIcon = files.url(for: "icons/apple-touch-icon.png", prefix: basePath)
            var icons: [String: String] = [:]
            for path in files.paths where path.hasPrefix("icons/") {
                icons[String(path.dropFirst("icons/".count))] = files.url(for: path, prefix: basePath)
            }
            self.icons = icons
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
        language: Language
    ) -> [UInt8] {
        // A page whose content says it is the same for everyone is rendered once per tab
        // bar arrangement; only the visitor's CSRF token differs, and it is written into
        // the cached bytes (see `TokenizedPage`). A notice makes the page one-off.
        if notice == nil, let contentKey = page.cacheKey {
            let key = PageKey(
                bar: barKey(session.state, model: model, onMorePage: false, language: language), template: tab.template,
                tabID: tab.id,
                tabTitle: tab.title, content: contentKey)
            let cached = pageCache.value(for: key) {
                var placeholder = session
                placeholder.csrfToken = TokenizedPage.placeholder
                return TokenizedPage(
                    bytes: renderTabPage(
                        tab: tab, page: page, session: placeholder, model: model, notice: nil, language: language))
            }
            return cached.filled(with: session.csrfToken)
        }
        return renderTabPage(tab: tab, page: page, session: session, model: model, notice: notice, language: language)
    }

    private func renderTabPage(
        tab: Tab, page: TabPage, session: Session, model: ModelSnapshot, notice: Notice?, language: Language
    ) -> [UInt8] {
        var context = common(
            title: page.title, session: session, model: model, onMorePage: false, notice: notice, language: language)
        context["tab"] = ["id": .string(tab.id), "title": .string(tab.title)]
        context["page"] = page.context
        if let contentLanguage = page.language, contentLanguage != language.code {
            context["contentLanguage"] = .string(contentLanguage)
        }
        if let parent = page.parentLocation {
            context["back"] = [
                "href": .string(basePath + TabServerApp.tabPath(tab.id, parent)),
                "title": .string(page.parentTitle ?? tab.title),
            ]
        }
        return render("tabs/\(tab.template)", .object(context))
    }

    func morePage(session: Session, model: ModelSnapshot, notice: Notice?, language: Language, localizer: Localizer)
        -> [UInt8]
    {
        var context = common(
            title: language.text("more"), session: session, model: model, onMorePage: true, notice: notice,
            language: language)
        let layout = model.controller.layout(session.state)
        context["more"] = [
            "items": .array(layout.compactMoreItems.map { item(item: $0, count: layout.count, language: language) }),
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

    func customizePage(session: Session, model: ModelSnapshot, message: String?, language: Language) -> [UInt8] {
        var context = common(
            title: language.text("edit"), session: session, model: model, onMorePage: true, notice: nil,
            language: language)
        let layout = model.controller.layout(session.state)
        let customizable = layout.items.filter { $0.tab.isCustomizable }.map(\.tab.id)
        func row(_ entry: TabBarLayout.Item) -> MustacheValue {
            let id = entry.tab.id
            let isCustomizable = entry.tab.isCustomizable
            let title = language.tabTitles[id] ?? entry.tab.title
            return [
                "id": .string(id), "title": .string(title),
                "upLabel": .string(language.text("moveUp", ["title": title])),
                "downLabel": .string(language.text("moveDown", ["title": title])),
                "icon": .string(assets.icons[entry.tab.icon] ?? ""),
                "position": .int(entry.position), "fixed": .bool(!isCustomizable),
                "canUp": .bool(isCustomizable && customizable.first != id),
                "canDown": .bool(isCustomizable && customizable.last != id),
                "canToMore": .bool(isCustomizable && layout.showsMoreCompact && entry.inCompactBar),
                "canToBar": .bool(isCustomizable && !entry.inCompactBar),
            ]
        }
        context["customize"] = [
            "version": .string(LayoutFingerprint.of(model.controller.effectiveOrder(session.state))),
            "barItems": .array(layout.compactBarItems.map(row)),
            "moreItems": .array(layout.compactMoreItems.map(row)),
            "hasMore": .bool(layout.showsMoreCompact),
            "action": .string(basePath + "/more/edit"),
            "isDefault": .bool(session.state.order == nil),
        ]
        if let message { context["message"] = .string(message) }
        return render("pages/customize", .object(context))
    }

    func errorPage(_ error: HTTPError, session: Session?, model: ModelSnapshot, language: Language) -> [UInt8] {
        var context: [String: MustacheValue]
        if let session {
            context = common(
                title: error.status.reason, session: session, model: model, onMorePage: false, notice: nil,
                language: language)
        } else {
            context = chrome(title: error.status.reason, model: model, language: language)
        }
        context["error"] = [
            "code": .int(error.status.code), "reason": .string(error.status.reason), "message": .string(error.message),
            "field": error.field.map(MustacheValue.string) ?? .null,
            "homeHref": .string(basePath.isEmpty ? "/" : basePath + "/"),
        ]
        return render("pages/error", .object(context))
    }

    // MARK: Shared parts

    /// What every page has: head, appearance, and (with a session) the tab bar.
    private func chrome(title: String, model: ModelSnapshot, language: Language) -> [String: MustacheValue] {
        [
            "lang": .string(language.code), "dir": .string(language.direction), "t": language.templateValue,
            "appName": .string(appName), "title": .string(title), "base": .string(basePath),
            "css": .string(assets.css), "script": .string(assets.script),
            "liveScript": .string(assets.liveScript), "manifest": .string(assets.manifest),
            "favicon": .string(assets.favicon), "appleTouchIcon": .string(assets.appleTouchIcon),
            "themeColor": .string(model.controller.model.appearance.tint),
            "appearance": .string(model.appearanceCSS),
        ]
    }

    private func common(
        title: String, session: Session, model: ModelSnapshot, onMorePage: Bool, notice: Notice?, language: Language
    ) -> [String: MustacheValue] {
        var context = chrome(title: title, model: model, language: language)
        context["csrf"] = .string(session.csrfToken.text)
        let state = session.state
        context["bar"] = barCache.value(for: barKey(state, model: model, onMorePage: onMorePage, language: language)) {
            bar(model.controller.layout(state), onMorePage: onMorePage, language: language)
        }
        if let notice {
            var value: [String: MustacheValue] = ["message": .string(notice.message)]
            if let id = notice.confirmTabID, let tab = model.controller.model.tab(id: id) {
                let title = language.tabTitles[tab.id] ?? tab.title
                value["confirm"] = [
                    "id": .string(tab.id), "label": .string(language.text("open", ["title": title])),
                ]
            }
            context["notice"] = .object(value)
        }
        return context
    }

    private func barKey(_ state: TabBarState, model: ModelSnapshot, onMorePage: Bool, language: Language) -> BarKey {
        BarKey(
            generation: model.generation, order: state.order, selected: state.selectedTabID,
            badges: state.badgeOverrides, onMorePage: onMorePage, language: language.code)
    }

    private func bar(_ layout: TabBarLayout, onMorePage: Bool, language: Language) -> MustacheValue {
        [
            "items": .array(
                layout.items.map { item(item: $0, count: layout.count, onMorePage: onMorePage, language: language) }),
            "moreCompact": .bool(layout.showsMoreCompact),
            "moreRegular": .bool(layout.showsMoreRegular),
            "moreSelectedCompact": .bool(onMorePage || layout.isMoreSelected),
            "moreSelectedRegular": .bool(onMorePage || layout.isMoreSelectedRegular),
            "moreHref": .string(basePath + "/more"),
            "action": .string(basePath + "/select"),
            "count": .int(layout.count + (layout.showsMoreCompact ? 1 : 0)),
        ]
    }

    private func item(item: TabBarLayout.Item, count: Int, onMorePage: Bool = false, language: Language)
        -> MustacheValue
    {
        var value: [String: MustacheValue] = [
            "id": .string(item.tab.id), "title": .string(language.tabTitles[item.tab.id] ?? item.tab.title),
            "positionLabel": .string(
                language.text("tabPosition", ["position": String(item.position), "count": String(count)])),
            "icon": .string(assets.icons[item.icon] ?? ""),
            "selected": .bool(item.isSelected && !onMorePage), "disabled": .bool(!item.tab.isEnabled),
            "position": .int(item.position), "count": .int(count),
            "compactMore": .bool(!item.inCompactBar), "regularMore": .bool(!item.inRegularBar),
        ]
        if let badge = item.badge {
            var badgeValue: [String: MustacheValue] = [
                "text": .string(badge.displayText), "label": .string(badge.accessibleText),
            ]
            if case .dot = badge.value { badgeValue["dot"] = true }
            if let color = badge.color { badgeValue["color"] = .string(color) }
            value["badge"] = .object(badgeValue)
        }
        return .object(value)
    }
}
