// SPDX-License-Identifier: Apache-2.0
import TabServerAppModel
import TabServerHTTP
import TabServerMustache
import TabServerSessions
import TabServerTabBar
import TabServerWeb

/// More's list and the Edit page (customizing the bar).
extension PageRenderer {
    /// More's list: the tabs the bar has no room for, as rows (UIKit's
    /// `moreNavigationController`), with Edit when the bar can be customized.
    package func morePage(
        session: Session, model: ModelSnapshot, notice: Notice?, language: Language, variant: PageVariant,
        localizer: Localizer, accessory: TabAccessory? = nil, push: [String: String]? = nil
    ) -> [UInt8] {
        var context = common(
            title: language.text("more"), path: "/more", session: session, model: model, onMorePage: true,
            notice: notice, language: language, variant: variant)
        if let push { context["push"] = .object(push.mapValues { .string($0) }) }
        if let accessory { context["accessory"] = accessoryValue(accessory, session: session, path: "/more") }
        let layout = model.controller.layout(session.state)
        context["more"] = [
            "items": .array(
                layout.compactMoreItems.map {
                    item(item: $0, count: layout.count, language: language, platform: variant.platform)
                }),
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
    package func customizePage(
        session: Session, model: ModelSnapshot, notice: Notice?, message: String?, language: Language,
        variant: PageVariant
    )
        -> [UInt8]
    {
        var context = common(
            title: language.text("editTabs"), path: "/more/edit", session: session, model: model, onMorePage: true,
            notice: notice, language: language, variant: variant)
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
}
