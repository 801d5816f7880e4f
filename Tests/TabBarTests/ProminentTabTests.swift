// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("The prominent tab (iOS 27's prominentTabIdentifier): apart, trailing, always in the bar")
struct ProminentTabTests {
    func model(_ ids: [String], prominentAt index: Int, search: Bool = false) throws -> TabBarModel {
        var tabs = ids.map { Fixture.tab($0) }
        var prominent = Fixture.tab("new")
        prominent.role = .prominent
        tabs.insert(prominent, at: index)
        if search {
            var searchTab = Fixture.tab("search")
            searchTab.role = .search
            tabs.append(searchTab)
        }
        return try TabBarModel(tabs: tabs)
    }

    @Test("it comes last, after the search tab, whatever its place in the definition, in both bars")
    func trailing() throws {
        let controller = TabBarController(model: try model(Fixture.seven, prominentAt: 0, search: true))
        let layout = controller.layout(TabBarState())
        #expect(controller.model.defaultOrder.suffix(2) == ["search", "new"])
        #expect(layout.compactBarItems.map(\.tab.id) == ["home", "music", "search", "new"])
        #expect(layout.regularBarItems.map(\.tab.id).suffix(2) == ["search", "new"])
    }

    @Test("the tab apart is the prominent tab; with none, the search tab; with neither, none")
    func apart() throws {
        #expect(try model(Fixture.seven, prominentAt: 2, search: true).apartTabID == "new")
        var search = Fixture.tab("search")
        search.role = .search
        #expect(try TabBarModel(tabs: [Fixture.tab("home"), search]).apartTabID == "search")
        #expect(try TabBarModel(tabs: [Fixture.tab("home")]).apartTabID == nil)
    }

    @Test("customizing never moves it; it cannot be hidden or placed")
    func fixed() throws {
        let controller = TabBarController(model: try model(Fixture.seven, prominentAt: 3))
        let state = TabBarState()
        #expect(throws: CustomizationError.self) {
            _ = try controller.apply(.moveUp("new"), to: state, expectedVersion: state.version)
        }
        var hideable = Fixture.tab("new")
        hideable.role = .prominent
        hideable.allowsHiding = true
        #expect(throws: TabBarModelError.self) { try TabBarModel(tabs: [Fixture.tab("home"), hideable]) }
        var placed = Fixture.tab("new")
        placed.role = .prominent
        placed.preferredPlacement = .movable
        let error = #expect(throws: TabBarModelError.self) { try TabBarModel(tabs: [Fixture.tab("home"), placed]) }
        #expect(error?.description.contains("the prominent tab has its own place") == true)
    }

    @Test("a second prominent tab stops start-up with a message naming both")
    func onlyOne() throws {
        var first = Fixture.tab("create")
        first.role = .prominent
        var second = Fixture.tab("compose")
        second.role = .prominent
        let error = #expect(throws: TabBarModelError.self) {
            try TabBarModel(tabs: [Fixture.tab("home"), first, second])
        }
        let text = error?.description ?? ""
        #expect(text.contains("'compose'") && text.contains("'create'"), "\(text)")
    }

    @Test("\"role\": \"prominent\" in the tab file")
    func json() throws {
        let model = try TabBarModel.decode(
            json: Array(
                #"{"tabs":[{"id":"a","title":"A","icon":"a.svg"},{"id":"p","title":"P","icon":"p.svg","role":"prominent"}]}"#
                    .utf8))
        #expect(model.tab(id: "p")?.role == .prominent)
        #expect(model.apartTabID == "p")
    }

    @Test("a role that is none of the three stops start-up naming the tab's key and the roles")
    func unknownRole() {
        let json = #"{"tabs":[{"id":"a","title":"A","icon":"a.svg","role":"primary"}]}"#
        let error = #expect(throws: TabBarModelError.self) { try TabBarModel.decode(json: Array(json.utf8)) }
        let text = error?.description ?? ""
        #expect(
            text.contains(#"unknown role 'primary' (use "standard", "search" or "prominent")"#)
                && text.contains("role"), "\(text)")
    }
}
