// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerSessions
import TabServerTabBar
import TabServerWeb

/// What every page shares: the head, the appearance, the tab bar and its items.
extension PageRenderer {
    /// What every page has: head, appearance, and (with a session) the tab bar.
    package func chrome(title: String, model: ModelSnapshot, language: Language, variant: PageVariant)
        -> [String: MustacheValue]
    {
        let material = variant.platform == .material
        return [
            "lang": .string(language.code), "dir": .string(language.direction), "t": language.templateValue,
            "appName": .string(appName), "title": .string(title), "base": .string(basePath),
            "css": .string(assets.css), "script": .string(assets.script),
            "liveScript": .string(assets.liveScript), "installScript": .string(assets.installScript),
            "worker": serviceWorker ? .string(assets.worker) : .null, "workerScope": .string(assets.workerScope),
            "manifest": .string(assets.manifest + "?lang=" + language.code),
            "favicon": .string(assets.favicon), "appleTouchIcon": .string(assets.appleTouchIcon),
            "themeColor": .string(model.controller.model.appearance.tint),
            "themeColorDark": .string(model.controller.model.appearance.effectiveDarkTint),
            "appearance": .string(appearanceStyle(model)),
            "appearanceClasses": .string(material ? model.materialClasses : model.appearanceClasses),
            "platform": .string(variant.platform.rawValue),
            // Each platform's own styles and gestures: iOS's floating bar and its scrub, Material's bar.
            "barCSS": material ? .null : .string(assets.barCSS),
            "scrubScript": material ? .null : .string(assets.scrubScript),
            "materialCSS": material ? .string(assets.materialCSS) : .null,
            "dev": development ? .string(assets.devScript) : .null,
            "appVariant": variant.app.isEmpty ? .null : .string(variant.app),
        ]
    }

    /// The appearance's custom properties, with the background image's URL (which
    /// needs the base path and the file's content hash) when there is one.
    package func appearanceStyle(_ model: ModelSnapshot) -> String {
        guard let image = model.controller.model.appearance.backgroundImage, let url = assets.all[image] else {
            return model.appearanceCSS
        }
        return model.appearanceCSS + ";--tab-background-image:url('\(url)')"
    }

    package func common(
        title: String, path: String?, session: Session, model: ModelSnapshot, onMorePage: Bool, notice: Notice?,
        language: Language, variant: PageVariant
    ) -> [String: MustacheValue] {
        var context = chrome(title: title, model: model, language: language, variant: variant)
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
        context["bar"] = barCache.value(for: barKey(state, onMorePage: onMorePage, variant: variant)) {
            bar(
                model.controller.layout(state), controller: model.controller, onMorePage: onMorePage,
                language: language, platform: variant.platform,
                sidebarToggle: sidebarToggle(state, model: model, language: language),
                collapsedGroups: state.collapsedGroups)
        }
        if state.isSidebarHidden != nil, model.controller.model.appearance.allowsSidebarToggle {
            // The visitor's choice of sidebar or bar decides the layout classes.
            let appearance = model.controller.model.appearance
            context["appearanceClasses"] = .string(
                variant.platform == .material
                    ? appearance.materialCSSClasses(sidebarHidden: state.isSidebarHidden)
                    : appearance.cssClasses(sidebarHidden: state.isSidebarHidden))
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

    package func barKey(_ state: TabBarState, onMorePage: Bool, variant: PageVariant) -> BarKey {
        BarKey(
            variant: variant, order: state.order, selected: state.selectedTabID, badges: state.badgeOverrides,
            onMorePage: onMorePage, sidebarHidden: state.isSidebarHidden, hiddenChoices: state.hiddenChoices,
            collapsedGroups: state.collapsedGroups)
    }

    /// The sidebar toggle's form values (1024 px and wider), when the appearance offers it:
    /// the state it asks for and its label.
    package func sidebarToggle(_ state: TabBarState, model: ModelSnapshot, language: Language) -> MustacheValue {
        guard model.controller.model.appearance.allowsSidebarToggle else { return .null }
        let shown = model.controller.showsSidebar(state)
        return [
            "action": .string(basePath + "/sidebar"), "value": .string(shown ? "hide" : "show"),
            "label": .string(language.text(shown ? "hideSidebar" : "showSidebar")), "shown": .bool(shown),
        ]
    }

    package func bar(
        _ layout: TabBarLayout, controller: TabBarController, onMorePage: Bool, language: Language,
        platform: TabBarAppearance.PlatformStyle = .ios, sidebarToggle: MustacheValue, collapsedGroups: [String] = []
    ) -> MustacheValue {
        let positions = BarPositions(layout)
        func label(_ position: (Int, Int)?) -> MustacheValue {
            guard let (position, count) = position else { return .null }
            return .string(language.text("tabPosition", ["position": String(position), "count": String(count)]))
        }
        func barItem(_ offset: Int, _ entry: TabBarLayout.Item) -> MustacheValue {
            var value = item(
                item: entry, count: layout.count, onMorePage: onMorePage, language: language, platform: platform)
            guard case .object(var fields) = value else { return value }
            // What a screen reader says: the place among the items on screen at each width.
            fields["compactPositionLabel"] = label(positions.compact[entry.tab.id])
            fields["regularPositionLabel"] = label(positions.regular[entry.tab.id])
            if entry.isGroup { fields["isGroup"] = true }
            if entry.tab.id == controller.model.apartTabID { fields["apart"] = true }
            // The first tab of a group carries the group's heading (sidebar layout).
            if let group = entry.tab.group {
                let collapsed = collapsedGroups.contains(group)
                if offset == 0 || layout.items[offset - 1].tab.group != group {
                    // A declared group's heading is its title.
                    let heading =
                        controller.model.group(id: group)?.title(in: language) ?? language.messages[group] ?? group
                    // A button of the bar's form: it posts the form's token and return path.
                    // A declared group's badge shows on its heading too (the sidebar has no group item).
                    let badge = layout.items.first { $0.isGroup && $0.tab.id == group }?.badge
                    fields["group"] = [
                        "title": .string(heading),
                        "name": .string(group),
                        "collapsed": .bool(collapsed), "action": .string(basePath + "/sidebar/group"),
                        "id": .string("group-" + String(offset)),
                        "groupBadge": badge.map { badgeValue($0, language: language, platform: platform) } ?? .null,
                    ]
                }
                if collapsed { fields["inCollapsedGroup"] = true }
            }
            value = .object(fields)
            return value
        }
        let indexed = Array(layout.items.enumerated())
        // Pinned tabs, the search tab and the prominent tab come after More, in the markup
        // as on screen, so reading order is the screen's.
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
            "editHref": .string(basePath + "/more/edit"),
            "moreAction": .string(basePath + "/more/open"),
            "action": .string(basePath + "/select"),
            "count": .int(layout.count + (layout.showsMoreCompact ? 1 : 0)),
            "sidebarToggle": sidebarToggle,
        ]
    }

    package func item(
        item: TabBarLayout.Item, count: Int, onMorePage: Bool = false, language: Language,
        platform: TabBarAppearance.PlatformStyle = .ios
    ) -> MustacheValue {
        var value: [String: MustacheValue] = [
            "id": .string(item.tab.id), "title": .string(language.tabTitles[item.tab.id] ?? item.tab.title),
            "search": .bool(item.tab.role == .search),
            "prominent": .bool(item.tab.role == .prominent),
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
            var badgeValue = badgeValue(badge, language: language, platform: platform)
            // The exact number, for the app badge (the sum of the counts: install.js); a
            // group's badge sums its children's, which are counted already.
            if !item.isGroup, case .count(let count) = badge.value, case .object(var fields) = badgeValue {
                fields["exactCount"] = .string(String(count))
                badgeValue = .object(fields)
            }
            value["badge"] = badgeValue
        }
        return .object(value)
    }

    /// A badge as the templates draw it: its text ("99+" on iOS, "999+" on Material), what
    /// a screen reader says, its colour.
    func badgeValue(_ badge: Badge, language: Language, platform: TabBarAppearance.PlatformStyle) -> MustacheValue {
        let label = if case .dot = badge.value { language.text("badgeDot") } else { badge.accessibleText }
        let shown = badge.displayText(
            upTo: platform == .material ? Badge.materialMaxDisplayedCount : Badge.maxDisplayedCount)
        let text = language.messages[shown] ?? shown
        var fields: [String: MustacheValue] = [
            "text": .string(text), "label": .string(language.messages[label] ?? label),
        ]
        if case .dot = badge.value { fields["dot"] = true }
        // Longer than two letters: wider than the room beside the icon on a phone.
        if case .text = badge.value, text.count > 2 { fields["wide"] = true }
        if let color = badge.color { fields["color"] = .string(color) }
        return .object(fields)
    }

    /// A text made of parts, where the parts marked `isolated` (names of tabs, text
    /// from elsewhere) are rendered in `<bdi>`, so punctuation and direction of the
    /// surrounding sentence stay right in a right-to-left page.
    package static func isolating(_ text: String) -> MustacheValue {
        .array(IsolatedText.parts(of: text).map { ["text": .string($0.text), "isolated": .bool($0.isolated)] })
    }
}
