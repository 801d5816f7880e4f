// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("The search tab (UISearchTab): trailing, always in the bar, not customizable")
struct SearchTabTests {
    func controller(_ ids: [String], searchAt index: Int) throws -> TabBarController {
        var tabs = ids.map { Fixture.tab($0) }
        var search = Fixture.tab("search")
        search.role = .search
        tabs.insert(search, at: index)
        return TabBarController(model: try TabBarModel(tabs: tabs))
    }

    @Test("it comes last whatever its place in the definition, and stays in both bars")
    func trailing() throws {
        let controller = try controller(Fixture.seven, searchAt: 1)
        let layout = controller.layout(TabBarState())
        #expect(layout.items.last?.tab.id == "search")
        #expect(layout.compactBarItems.map(\.tab.id) == ["home", "music", "video", "search"])
        #expect(layout.showsMoreCompact)
        #expect(layout.regularBarItems.map(\.tab.id) == Fixture.seven + ["search"])
        #expect(controller.effectiveOrder(TabBarState()) == controller.model.defaultOrder)
    }

    @Test("with few tabs there is no More, and the bar holds them all")
    func fewTabs() throws {
        let controller = try controller(["home", "music", "video", "books"], searchAt: 0)
        let layout = controller.layout(TabBarState())
        #expect(!layout.showsMoreCompact)
        #expect(layout.compactBarItems.map(\.tab.id) == ["home", "music", "video", "books", "search"])
    }

    @Test("customizing never moves it, and moving others keeps it last")
    func notCustomizable() throws {
        let controller = try controller(Fixture.seven, searchAt: 3)
        let state = TabBarState()
        #expect(throws: CustomizationError.self) {
            _ = try controller.apply(.moveUp("search"), to: state, expectedVersion: state.version)
        }
        let moved = try controller.apply(.moveToBar("chat"), to: state, expectedVersion: state.version)
        #expect(controller.effectiveOrder(moved).last == "search")
        #expect(controller.layout(moved).compactBarItems.map(\.tab.id).contains("chat"))
    }

    @Test("a second search tab is refused with a message naming both")
    func onlyOne() throws {
        var first = Fixture.tab("find")
        first.role = .search
        var second = Fixture.tab("lookup")
        second.role = .search
        #expect(throws: TabBarModelError.self) { try TabBarModel(tabs: [Fixture.tab("home"), first, second]) }
    }

    @Test("a remembered query is a valid location; other query strings are not")
    func queryLocation() {
        #expect(TabBarController.isValidLocation("?q=milk%20tea"))
        #expect(!TabBarController.isValidLocation("?q=<script>"))
        #expect(!TabBarController.isValidLocation("?"))
    }

    @Test("\"role\": \"search\" in the tab file")
    func json() throws {
        let model = try TabBarModel.decode(
            json: Array(
                #"{"tabs":[{"id":"a","title":"A","icon":"a.svg"},{"id":"s","title":"S","icon":"s.svg","role":"search"}]}"#
                    .utf8))
        #expect(model.searchTab?.id == "s")
    }
}

@Suite("Cancelling the search (iOS 26) returns to the tab selected before it")
struct SearchReturnTests {
    func controller() throws -> TabBarController {
        var tabs = Fixture.seven.map { Fixture.tab($0) }
        var search = Fixture.tab("search")
        search.role = .search
        tabs.append(search)
        return TabBarController(model: try TabBarModel(tabs: tabs))
    }

    @Test("the tab before the search is remembered; the search itself and unknown tabs are not")
    func remembered() throws {
        let controller = try controller()
        let state = TabBarState()
        #expect(controller.searchReturnTabID(in: state) == "home", "without one: the first tab")
        let entered = controller.enteringSearch(from: "video", in: state)
        #expect(controller.searchReturnTabID(in: entered) == "video")
        #expect(controller.enteringSearch(from: "search", in: entered) == entered)
        #expect(controller.enteringSearch(from: "gone", in: entered) == entered)
        #expect(controller.reconciled(entered).locations[TabBarController.searchReturnKey] == "video")
    }
}
