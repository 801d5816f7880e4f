// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("The sidebar toggle (UITabBarController.mode .tabSidebar): the visitor's choice of sidebar or bar")
struct SidebarToggleTests {
    func controller(_ layout: TabBarAppearance.RegularLayout, toggle: Bool? = nil) throws -> TabBarController {
        var appearance = TabBarAppearance()
        appearance.regularLayout = layout
        appearance.sidebarToggle = toggle
        let tabs = Fixture.seven.map { Fixture.tab($0) }
        return TabBarController(model: try TabBarModel(tabs: tabs, appearance: appearance))
    }

    @Test("offered by default with the sidebar layout only; sidebarToggle says otherwise")
    func offered() throws {
        var look = TabBarAppearance()
        #expect(!look.allowsSidebarToggle)
        look.regularLayout = .sidebar
        #expect(look.allowsSidebarToggle)
        look.sidebarToggle = false
        #expect(!look.allowsSidebarToggle)
        look.regularLayout = .bottomBar
        look.sidebarToggle = true
        #expect(look.allowsSidebarToggle)
    }

    @Test("hiding a sidebar shows the floating bar at the top; showing one where the model has a bar shows it")
    func layouts() throws {
        let sidebar = try controller(.sidebar)
        var state = TabBarState()
        #expect(sidebar.showsSidebar(state))
        state = sidebar.settingSidebarHidden(true, in: state)
        #expect(state.isSidebarHidden == true && state.version == 1)
        #expect(sidebar.regularLayout(state) == .topBar)
        #expect(sidebar.model.appearance.cssClasses(sidebarHidden: true).hasPrefix("regular-top-bar"))
        #expect(sidebar.settingSidebarHidden(true, in: state) == state, "no change, no new version")
        let bottom = try controller(.bottomBar, toggle: true)
        #expect(!bottom.showsSidebar(TabBarState()))
        let shown = bottom.settingSidebarHidden(false, in: TabBarState())
        #expect(bottom.regularLayout(shown) == .sidebar)
        #expect(bottom.regularLayout(bottom.settingSidebarHidden(true, in: shown)) == .bottomBar)
    }

    @Test("without the toggle the model decides, and the choice is kept for when it returns")
    func ignoredWithoutToggle() throws {
        let plain = try controller(.sidebar, toggle: false)
        let hidden = plain.settingSidebarHidden(true, in: TabBarState())
        #expect(plain.regularLayout(hidden) == .sidebar)
        #expect(plain.reconciled(hidden).isSidebarHidden == true)
        #expect(try controller(.sidebar).regularLayout(hidden) == .topBar)
    }

    @Test("the choice is written to JSON and read back; older states without it read as no choice")
    func json() throws {
        var state = TabBarState()
        state.isSidebarHidden = false
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(TabBarState.self, from: data) == state)
        #expect(try JSONDecoder().decode(TabBarState.self, from: Data(#"{"version": 2}"#.utf8)).isSidebarHidden == nil)
        let look = try JSONDecoder().decode(
            TabBarAppearance.self, from: Data(#"{"regularLayout": "topBar", "sidebarToggle": true}"#.utf8))
        #expect(look.sidebarToggle == true && look.allowsSidebarToggle)
        #expect(try JSONDecoder().decode(TabBarAppearance.self, from: JSONEncoder().encode(look)) == look)
    }
}
