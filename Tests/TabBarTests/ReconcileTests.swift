// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Runtime model changes (reconcile)")
struct ReconcileTests {
    @Test("an up-to-date state comes back identical, version included")
    func upToDate() throws {
        let controller = try Fixture.controller()
        var state = TabBarState()
        state.selectedTabID = "music"
        state.order = ["music", "home", "video", "books", "news", "maps", "chat"]
        state.locations = ["music": "albums/1"]
        state.badgeOverrides = ["news": .hidden]
        state.version = 9
        #expect(controller.reconciled(state) == state)
        #expect(controller.reconciled(TabBarState()) == TabBarState())
    }

    @Test("a removed tab vanishes from order, locations and overrides; its selection falls back")
    func removedTab() throws {
        let controller = try Fixture.controller(["home", "music", "news"])
        var state = TabBarState()
        state.selectedTabID = "video"
        state.order = ["news", "video", "music", "home"]
        state.locations = ["video": "clips/2", "news": "today"]
        state.badgeOverrides = ["video": .hidden, "news": .badge(.count(1))]
        state.version = 3
        let next = controller.reconciled(state)
        #expect(next.selectedTabID == "home")
        #expect(next.order == ["news", "music", "home"])
        #expect(next.locations == ["news": "today"])
        #expect(next.badgeOverrides == ["news": .badge(.count(1))])
        #expect(next.version == 4)
    }

    @Test("a selection that became disabled falls back to the first enabled tab")
    func disabledSelection() throws {
        let controller = try Fixture.controller(["home", "music", "news"], disabled: ["home", "news"])
        var state = TabBarState()
        state.selectedTabID = "news"
        state.locations["news"] = "today"
        let next = controller.reconciled(state)
        #expect(next.selectedTabID == "music")
        #expect(next.locations["news"] == "today", "kept for when the tab is enabled again")
    }

    @Test(
        "new tabs appear at their model index",
        arguments: [
            (["a", "n", "b", "c"], ["c", "b", "a"], ["c", "n", "b", "a"]),
            (["n", "a", "b", "c"], ["c", "b", "a"], ["n", "c", "b", "a"]),
            (["a", "b", "c", "n"], ["c", "b", "a"], ["c", "b", "a", "n"]),
            (["a", "b", "c", "d", "n"], ["b", "a"], ["b", "a", "c", "d", "n"]),
            (["a", "b", "c", "m", "n"], ["c", "b"], ["a", "c", "b", "m", "n"]),
        ])
    func newTabs(_ model: [String], _ stored: [String], _ expected: [String]) throws {
        let controller = try Fixture.controller(model)
        var state = TabBarState()
        state.order = stored
        #expect(controller.effectiveOrder(state) == expected)
        #expect(controller.reconciled(state).order == (expected == model ? nil : expected))
    }

    @Test("a tab made fixed goes back to its model index; the others keep their order")
    func madeFixed() throws {
        let controller = try Fixture.controller(["a", "b", "c", "d"], fixed: ["b"])
        var state = TabBarState()
        state.order = ["d", "c", "a", "b"]
        #expect(controller.reconciled(state).order == ["d", "b", "c", "a"])
    }

    @Test("repeated ids in a stored order are dropped")
    func duplicates() throws {
        let controller = try Fixture.controller(["a", "b", "c"])
        var state = TabBarState()
        state.order = ["c", "c", "a", "c", "b", "a"]
        #expect(controller.reconciled(state).order == ["c", "a", "b"])
    }

    @Test("an order equal to the default is stored as nil")
    func defaultOrderIsNil() throws {
        let controller = try Fixture.controller(["a", "b", "c"])
        var state = TabBarState()
        state.order = ["a", "zzz", "b", "c"]
        let next = controller.reconciled(state)
        #expect(next.order == nil)
        #expect(next.version == 1)
    }

    @Test("a reordered model moves visitors who never customized")
    func reorderedModel() throws {
        let before = try Fixture.controller(["a", "b", "c"])
        let after = try Fixture.controller(["c", "a", "b"])
        let (state, _) = before.select("b", in: TabBarState())
        #expect(after.effectiveOrder(after.reconciled(state)) == ["c", "a", "b"])
        #expect(after.reconciled(state) == state)
    }

    @Test("invalid or root locations and invalid badge overrides are dropped")
    func invalidEntries() throws {
        let controller = try Fixture.controller(["a", "b", "c"])
        var state = TabBarState()
        state.locations = ["a": "", "b": "../x", "c": "ok/1"]
        state.badgeOverrides = ["a": .badge(.dot(color: "url(x)")), "b": .badge(.count(-1)), "c": .hidden]
        let next = controller.reconciled(state)
        #expect(next.locations == ["c": "ok/1"])
        #expect(next.badgeOverrides == ["c": .hidden])
    }

    @Test("reconciling twice is the same as once")
    func idempotent() throws {
        let controller = try Fixture.controller(["a", "b", "c", "d"], fixed: ["c"], disabled: ["a"])
        var state = TabBarState()
        state.selectedTabID = "a"
        state.order = ["d", "c", "x", "b"]
        let once = controller.reconciled(state)
        #expect(controller.reconciled(once) == once)
    }
}
