// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Visits (GET of a tab URL)")
struct VisitTests {
    @Test("a visit selects the tab and remembers the location")
    func visit() throws {
        let controller = try Fixture.controller()
        let (next, outcome) = controller.visit("music", location: "albums/12/tracks/3", in: TabBarState())
        #expect(outcome == .selected(tabID: "music", location: "albums/12/tracks/3"))
        #expect(next.selectedTabID == "music")
        #expect(next.locations["music"] == "albums/12/tracks/3")
        #expect(next.version == 1)
        #expect(controller.select("home", in: next).0.locations["music"] == "albums/12/tracks/3")
    }

    @Test("visiting the same place again changes nothing, not even the version")
    func repeatVisit() throws {
        let controller = try Fixture.controller()
        let (first, _) = controller.visit("music", location: "albums/12", in: TabBarState())
        let (second, outcome) = controller.visit("music", location: "albums/12", in: first)
        #expect(second == first)
        #expect(outcome == .selected(tabID: "music", location: "albums/12"))
    }

    @Test("visiting the root forgets the location")
    func visitRoot() throws {
        let controller = try Fixture.controller()
        var state = TabBarState()
        state.selectedTabID = "music"
        state.locations["music"] = "albums/12"
        let (next, _) = controller.visit("music", location: "", in: state)
        #expect(next.locations.isEmpty)
        #expect(next.version == 1)
    }

    @Test(
        "an invalid location is treated as the root",
        arguments: ["/albums", "albums/", "albums//12", "..", "albums/../x", "a b", "%2e%2e"])
    func invalidLocation(_ location: String) throws {
        let controller = try Fixture.controller()
        var state = TabBarState()
        state.locations["music"] = "albums/12"
        let (next, outcome) = controller.visit("music", location: location, in: state)
        #expect(outcome == .selected(tabID: "music", location: ""))
        #expect(next.locations["music"] == nil)
    }

    @Test(
        "visits of disabled or unknown tabs change nothing and call no hooks",
        arguments: [("chat", SelectionOutcome.disabled(tabID: "chat")), ("nope", .unknownTab("nope"))])
    func refused(_ id: String, _ expected: SelectionOutcome) throws {
        let recorder = Recorder()
        let hooks = TabBarHooks(
            shouldSelect: { _, _ in
                recorder.record("should")
                return .allow
            },
            didSelect: { _, _ in recorder.record("did") })
        let controller = try Fixture.controller(disabled: ["chat"], hooks: hooks)
        let (next, outcome) = controller.visit(id, location: "x", in: TabBarState())
        #expect(outcome == expected)
        #expect(next == TabBarState())
        #expect(recorder.events.isEmpty)
    }

    @Test("a visit is not a tap: no hooks run, and a veto does not apply")
    func noHooks() throws {
        let recorder = Recorder()
        let hooks = TabBarHooks(
            shouldSelect: { _, _ in
                recorder.record("should")
                return .deny(message: "no")
            },
            didSelect: { _, _ in recorder.record("did") })
        let controller = try Fixture.controller(hooks: hooks)
        #expect(controller.visit("music", location: "", in: TabBarState()).1 == .selected(tabID: "music", location: ""))
        #expect(recorder.events.isEmpty)
    }

    @Test("viewing a tab that clears its badge hides it")
    func visitClearsBadge() throws {
        let controller = TabBarController(
            model: try TabBarModel(tabs: [
                Fixture.tab("home"), Fixture.tab("inbox", badge: .count(2), clearsBadge: true),
            ]))
        let (next, _) = controller.visit("inbox", location: "", in: TabBarState())
        #expect(controller.effectiveBadge(tabID: "inbox", state: next) == nil)
    }
}
