// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("More's stack (moreNavigationController): the tab of More last shown, kept across other tabs")
struct MoreStackTests {
    @Test("only a tab of More goes onto More's stack; popping empties it")
    func pushAndPop() throws {
        let controller = try Fixture.controller(Fixture.seven)
        let state = TabBarState()
        #expect(controller.pushingOntoMore("music", in: state) == state, "music is in the phone's bar")
        let pushed = controller.pushingOntoMore("maps", in: state)
        #expect(controller.moreStackTabID(in: pushed) == "maps")
        #expect(pushed.version == state.version + 1)
        #expect(controller.pushingOntoMore("maps", in: pushed) == pushed, "nothing changes twice")
        #expect(controller.moreStackTabID(in: controller.poppingMore(pushed)) == nil)
    }

    @Test("a tab moved into the bar leaves More's stack; reconciling keeps a stack naming a tab")
    func followsTheArrangement() throws {
        let controller = try Fixture.controller(Fixture.seven)
        let pushed = controller.pushingOntoMore("maps", in: TabBarState())
        let moved = try controller.apply(.moveToBar("maps"), to: pushed, expectedVersion: pushed.version)
        #expect(controller.moreStackTabID(in: moved) == nil)
        #expect(controller.reconciled(pushed).locations[TabBarController.moreStackKey] == "maps")
        var stray = pushed
        stray.locations[TabBarController.moreStackKey] = "gone"
        #expect(controller.reconciled(stray).locations[TabBarController.moreStackKey] == nil)
    }
}
