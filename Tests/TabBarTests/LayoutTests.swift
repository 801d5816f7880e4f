// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Layout: bar and More at both widths")
struct LayoutTests {
    @Test(
        "bar sizes and More per width",
        arguments: [
            // tabs, compact bar, compact More, regular bar, regular More
            (1, 1, 0, 1, 0), (4, 4, 0, 4, 0), (5, 5, 0, 5, 0), (6, 4, 2, 6, 0),
            (8, 4, 4, 8, 0), (9, 4, 5, 7, 2), (12, 4, 8, 7, 5),
        ])
    func sizes(_ count: Int, _ compactBar: Int, _ compactMore: Int, _ regularBar: Int, _ regularMore: Int) throws {
        let layout = try Fixture.controller(Fixture.ids(count)).layout(TabBarState())
        #expect(layout.count == count)
        #expect(layout.items.count == count)
        #expect(layout.compactBarItems.count == compactBar)
        #expect(layout.compactMoreItems.count == compactMore)
        #expect(layout.regularBarItems.count == regularBar)
        #expect(layout.regularMoreItems.count == regularMore)
        #expect(layout.showsMoreCompact == (compactMore > 0))
        #expect(layout.showsMoreRegular == (regularMore > 0))
    }

    @Test("items follow the visitor's order with 1-based positions")
    func order() throws {
        let controller = try Fixture.controller()
        var state = TabBarState()
        state.order = ["chat", "home", "music", "video", "books", "news", "maps"]
        let layout = controller.layout(state)
        #expect(layout.items.map(\.tab.id) == state.order)
        #expect(layout.items.map(\.position) == Array(1...7))
        #expect(layout.compactBarItems.map(\.tab.id) == ["chat", "home", "music", "video"])
        #expect(layout.compactMoreItems.map(\.tab.id) == ["books", "news", "maps"])
        #expect(layout.regularMoreItems.isEmpty)
    }

    @Test("the selected tab is marked, and More is marked when it holds the selection")
    func selection() throws {
        let controller = try Fixture.controller(Fixture.ids(10))
        let inBar = controller.layout(controller.visit("t2", location: "", in: TabBarState()).0)
        #expect(inBar.selectedItem?.tab.id == "t2")
        #expect(inBar.items.filter(\.isSelected).count == 1)
        #expect(!inBar.isMoreSelected)
        #expect(!inBar.isMoreSelectedRegular)

        let inCompactMore = controller.layout(controller.visit("t6", location: "", in: TabBarState()).0)
        #expect(inCompactMore.isMoreSelected)
        #expect(!inCompactMore.isMoreSelectedRegular)

        let inBothMores = controller.layout(controller.visit("t9", location: "", in: TabBarState()).0)
        #expect(inBothMores.isMoreSelected)
        #expect(inBothMores.isMoreSelectedRegular)
    }

    @Test("items carry the effective badge and the icon for their selection state")
    func badgesAndIcons() throws {
        let controller = TabBarController(
            model: try TabBarModel(tabs: [
                Tab(id: "home", title: "Home", icon: "home.svg", selectedIcon: "home-fill.svg"),
                Tab(id: "inbox", title: "Inbox", icon: "inbox.svg", badge: .count(3)),
                Tab(id: "news", title: "News", icon: "news.svg", badge: .text("New")),
            ]))
        var state = controller.setBadge(.hidden, forTab: "news", in: TabBarState())
        state = controller.setBadge(.badge(.count(120)), forTab: "home", in: state)
        let items = controller.layout(state).items
        #expect(items.map(\.badge) == [.count(120), .count(3), nil])
        #expect(items.map(\.icon) == ["home-fill.svg", "inbox.svg", "news.svg"])
    }

    @Test("disabled tabs are still laid out, just not selectable")
    func disabledShown() throws {
        let controller = try Fixture.controller(["a", "b"], disabled: ["a"])
        let layout = controller.layout(TabBarState())
        #expect(layout.items.map(\.tab.isEnabled) == [false, true])
        #expect(layout.selectedItem?.tab.id == "b")
    }
}
