// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("Hidden and placed tabs (UITab.allowsHiding, isHiddenByDefault, preferredPlacement)")
struct PlacementTests {
    /// home fixed, music movable, video pinned, books hideable, news optional (hidden until
    /// shown), maps sidebar-only, chat and tips ordinary.
    static let json = #"""
        {"tabs": [
          {"id": "home", "title": "Home", "icon": "home.svg", "preferredPlacement": "fixed"},
          {"id": "music", "title": "Music", "icon": "music.svg", "preferredPlacement": "movable"},
          {"id": "video", "title": "Video", "icon": "video.svg", "preferredPlacement": "pinned"},
          {"id": "books", "title": "Books", "icon": "books.svg", "allowsHiding": true},
          {"id": "news", "title": "News", "icon": "news.svg", "preferredPlacement": "optional"},
          {"id": "maps", "title": "Maps", "icon": "maps.svg", "preferredPlacement": "sidebarOnly"},
          {"id": "chat", "title": "Chat", "icon": "chat.svg", "allowsHiding": true, "isHiddenByDefault": true},
          {"id": "tips", "title": "Tips", "icon": "tips.svg"},
          {"id": "mail", "title": "Mail", "icon": "mail.svg"}
        ]}
        """#

    func controller() throws -> TabBarController {
        TabBarController(model: try TabBarModel.decode(json: Self.json))
    }

    @Test("tabs.json reads the placement keys; encoding writes them back")
    func parsing() throws {
        let model = try TabBarModel.decode(json: Self.json)
        #expect(model.tab(id: "home")?.preferredPlacement == .fixed)
        #expect(model.tab(id: "video")?.preferredPlacement == .pinned)
        #expect(model.tab(id: "books")?.allowsHiding == true)
        #expect(model.tab(id: "chat")?.isHiddenByDefault == true)
        #expect(model.tab(id: "news")?.startsHidden == true)
        #expect(model.tab(id: "tips")?.isHideable == false)
        // Pinned tabs come last in the default order.
        #expect(model.defaultOrder == ["home", "music", "books", "news", "maps", "chat", "tips", "mail", "video"])
        let again = try TabBarModel.decode(json: JSONEncoder().encode(model))
        #expect(again == model)
        let text = String(decoding: try JSONEncoder().encode(model), as: UTF8.self)
        #expect(text.contains("\"preferredPlacement\":\"sidebarOnly\""))
        let plain = try TabBarModel.decode(json: #"{"tabs": [{"id": "a", "title": "A", "icon": "a.svg"}]}"#)
        #expect(!plain.hasPlacements)
    }

    @Test("contradictions are refused with a message naming the tab")
    func validation() throws {
        func problem(_ tabs: String) -> String {
            do {
                _ = try TabBarModel.decode(json: #"{"tabs": ["# + tabs + "]}")
                return ""
            } catch { return error.description }
        }
        let ok = #"{"id": "ok", "title": "Ok", "icon": "ok.svg"}"#
        #expect(
            problem(
                #"{"id": "a", "title": "A", "icon": "a.svg", "preferredPlacement": "fixed", "allowsHiding": true}, "#
                    + ok
            )
            .contains("tab 'a': a fixed tab cannot be hidden"))
        #expect(
            problem(#"{"id": "a", "title": "A", "icon": "a.svg", "isHiddenByDefault": true}, "# + ok)
                == "tab 'a': isHiddenByDefault needs allowsHiding")
        #expect(
            problem(#"{"id": "a", "title": "A", "icon": "a.svg", "role": "search", "allowsHiding": true}, "# + ok)
                .contains("search tab cannot be hidden"))
        #expect(
            problem(#"{"id": "a", "title": "A", "icon": "a.svg", "preferredPlacement": "sideways"}"#).contains(
                "tabs[0]"))
        let pinned = (1...3).map {
            #"{"id": "p\#($0)", "title": "P", "icon": "p.svg", "preferredPlacement": "pinned"}"#
        }
        #expect(problem((pinned + [ok]).joined(separator: ",")).contains("3 tabs at the bar's trailing end"))
        #expect(
            problem(#"{"id": "a", "title": "A", "icon": "a.svg", "preferredPlacement": "optional"}"#)
                .contains("no enabled tab is shown in the bar"))
    }

    @Test("the layout: hidden tabs gone, sidebar-only in neither bar nor More, pinned at the bar's end")
    func layout() throws {
        let controller = try controller()
        let layout = controller.layout(TabBarState())
        #expect(layout.items.map(\.tab.id) == ["home", "music", "books", "maps", "tips", "mail", "video"])
        // 5 listed tabs + 1 pinned: 3 + More + Video on a phone.
        #expect(layout.compactBarItems.map(\.tab.id) == ["home", "music", "books", "video"])
        #expect(layout.compactMoreItems.map(\.tab.id) == ["tips", "mail"])
        #expect(layout.showsMoreCompact)
        #expect(layout.regularBarItems.map(\.tab.id) == ["home", "music", "books", "tips", "mail", "video"])
        #expect(!layout.showsMoreRegular, "a sidebar-only tab does not make a More")
        #expect(layout.items.first { $0.tab.id == "maps" }?.isSidebarOnly == true)
        #expect(controller.hiddenTabIDs(TabBarState()) == ["news", "chat"])
    }

    @Test("hide and show: only tabs that allow it; the state keeps only what differs from the default")
    func hideAndShow() throws {
        let controller = try controller()
        var state = TabBarState()
        state = try controller.apply(.show("news"), to: state, expectedVersion: 0)
        #expect(state.hiddenChoices == ["news": false] && state.version == 1)
        #expect(controller.layout(state).items.map(\.tab.id).contains("news"))
        state = try controller.apply(.hide("books"), to: state, expectedVersion: 1)
        #expect(controller.hiddenTabIDs(state) == ["books", "chat"])
        state = try controller.apply(.hide("news"), to: state, expectedVersion: 2)
        #expect(state.hiddenChoices == ["books": true], "hiding news again is its default: no entry")
        #expect(throws: CustomizationError.notHideable("home")) {
            try controller.apply(.hide("home"), to: state, expectedVersion: 3)
        }
        #expect(throws: CustomizationError.notHideable("video")) {
            try controller.apply(.hide("video"), to: state, expectedVersion: 3)
        }
        #expect(throws: CustomizationError.unknownTab("ghost")) {
            try controller.apply(.hide("ghost"), to: state, expectedVersion: 3)
        }
        #expect(throws: CustomizationError.cannotHide("books", reason: .alreadyHidden)) {
            try controller.apply(.hide("books"), to: state, expectedVersion: 3)
        }
        #expect(throws: CustomizationError.stale(currentVersion: 3)) {
            try controller.apply(.show("books"), to: state, expectedVersion: 2)
        }
        #expect(throws: CustomizationError.cannotMove("books", reason: .isHidden)) {
            try controller.apply(.moveUp("books"), to: state, expectedVersion: 3)
        }
        let reset = try controller.apply(.reset, to: state, expectedVersion: 3)
        #expect(reset.hiddenChoices.isEmpty && reset.order == nil)
    }

    @Test("the last tab in the bar cannot be hidden")
    func lastShown() throws {
        let controller = TabBarController(
            model: try TabBarModel.decode(
                json: #"""
                    {"tabs": [{"id": "a", "title": "A", "icon": "a.svg", "allowsHiding": true},
                              {"id": "b", "title": "B", "icon": "b.svg", "allowsHiding": true}]}
                    """#))
        let one = try controller.apply(.hide("a"), to: TabBarState(), expectedVersion: 0)
        #expect(controller.selectedTabID(one) == "b")
        #expect(throws: CustomizationError.cannotHide("b", reason: .lastShown)) {
            try controller.apply(.hide("b"), to: one, expectedVersion: 1)
        }
    }

    @Test("a hidden tab cannot be selected or visited; a hidden selection falls back to the first shown tab")
    func selection() throws {
        let controller = try controller()
        let (onBooks, _) = controller.select("books", in: TabBarState())
        let hidden = try controller.apply(.hide("books"), to: onBooks, expectedVersion: onBooks.version)
        #expect(controller.selectedTabID(hidden) == "home")
        #expect(controller.select("books", in: hidden).1 == .unknownTab("books"))
        #expect(controller.visit("news", location: "", in: hidden).1 == .unknownTab("news"))
        #expect(controller.reconciled(hidden).selectedTabID == "home")
    }

    @Test("moves work on the tabs of bar and More; hidden and sidebar-only tabs keep their places")
    func moves() throws {
        let controller = try controller()
        // Bar: home music books | More: tips mail. Tips into the bar swaps with books.
        var state = try controller.apply(.moveToBar("tips"), to: TabBarState(), expectedVersion: 0)
        #expect(controller.layout(state).compactBarItems.map(\.tab.id) == ["home", "music", "tips", "video"])
        #expect(
            controller.effectiveOrder(state) == [
                "home", "music", "tips", "news", "maps", "chat", "books", "mail", "video",
            ])
        state = try controller.apply(.moveUp("mail"), to: state, expectedVersion: 1)
        #expect(controller.layout(state).compactMoreItems.map(\.tab.id) == ["mail", "books"])
        #expect(throws: CustomizationError.notCustomizable("maps")) {
            try controller.apply(.moveUp("maps"), to: state, expectedVersion: 2)
        }
        // The script's drag posts the listed tabs only; the rest keep their places.
        let dragged = try controller.apply(
            .setOrder(["home", "tips", "music", "mail", "books"]), to: state, expectedVersion: 2)
        #expect(
            controller.layout(dragged).items.map(\.tab.id) == [
                "home", "tips", "music", "maps", "mail", "books", "video",
            ])
        #expect(throws: CustomizationError.invalidOrder(reason: "tab 'books' is missing")) {
            try controller.apply(.setOrder(["home", "tips", "music", "mail"]), to: state, expectedVersion: 2)
        }
    }

    @Test("a model change reconciles: unknown ids dropped, newly non-hideable tabs shown, defaults dropped")
    func reconcile() throws {
        let controller = try controller()
        var state = TabBarState()
        state.hiddenChoices = ["books": true, "news": false, "ghost": true, "tips": true, "chat": true]
        state.selectedTabID = "books"
        let next = controller.reconciled(state)
        #expect(next.hiddenChoices == ["books": true, "news": false])
        #expect(next.selectedTabID == "home")
        #expect(next.version == 1)
        #expect(controller.reconciled(next) == next, "reconciling twice changes nothing")
        // books no longer allows hiding: it shows again.
        let changed = TabBarController(
            model: try TabBarModel.decode(
                json: Self.json.replacingOccurrences(of: #""allowsHiding": true},"#, with: "},")))
        let after = changed.reconciled(next)
        #expect(after.hiddenChoices == ["news": false])
        #expect(changed.layout(after).items.contains { $0.tab.id == "books" })
    }

    @Test("the state's JSON keeps the choices")
    func stateCoding() throws {
        var state = TabBarState()
        state.hiddenChoices = ["books": true]
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(TabBarState.self, from: data) == state)
        #expect(!String(decoding: try JSONEncoder().encode(TabBarState()), as: UTF8.self).contains("hidden"))
    }
}
