// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Selection")
struct SelectionTests {
    /// A controller whose hooks write to `recorder`; "chat" is disabled and "maps"
    /// is refused by `shouldSelect`.
    static func controller(_ recorder: Recorder, tabs: [Tab]? = nil) throws -> TabBarController {
        let hooks = TabBarHooks(
            shouldSelect: { tab, state in
                recorder.record("should \(tab.id) v\(state.version)")
                return tab.id == "maps" ? .deny(message: "Maps needs a subscription.") : .allow
            },
            didSelect: { tab, state in
                recorder.record("did \(tab.id) v\(state.version) sel=\(state.selectedTabID ?? "-")")
            })
        let model =
            try tabs.map { try TabBarModel(tabs: $0) }
            ?? Fixture.model(Fixture.seven, disabled: ["chat"])
        return TabBarController(model: model, hooks: hooks)
    }

    @Test("selecting another tab returns its remembered location")
    func selectOther() throws {
        let recorder = Recorder()
        let controller = try Self.controller(recorder)
        var state = TabBarState()
        state.locations["music"] = "albums/12"
        let (next, outcome) = controller.select("music", in: state)
        #expect(outcome == .selected(tabID: "music", location: "albums/12"))
        #expect(next.selectedTabID == "music")
        #expect(next.locations["music"] == "albums/12")
        #expect(next.version == state.version + 1)
        #expect(recorder.events == ["should music v0", "did music v1 sel=music"])
    }

    @Test("a tab never visited opens at its root")
    func selectFresh() throws {
        let controller = try Self.controller(Recorder())
        #expect(controller.select("video", in: TabBarState()).1 == .selected(tabID: "video", location: ""))
    }

    @Test("re-selecting the selected tab pops it to the root")
    func reselect() throws {
        let recorder = Recorder()
        let controller = try Self.controller(recorder)
        var state = TabBarState()
        state.selectedTabID = "music"
        state.locations = ["music": "albums/12", "video": "clips/3"]
        let (next, outcome) = controller.select("music", in: state)
        #expect(outcome == .poppedToRoot(tabID: "music"))
        #expect(next.locations == ["video": "clips/3"])
        #expect(next.version == 1)
        #expect(recorder.events == ["should music v0", "did music v1 sel=music"])
    }

    @Test("re-selecting the default selection also pops to root")
    func reselectDefault() throws {
        let controller = try Self.controller(Recorder())
        var state = TabBarState()
        state.locations["home"] = "settings"
        let (next, outcome) = controller.select("home", in: state)
        #expect(outcome == .poppedToRoot(tabID: "home"))
        #expect(next.locations["home"] == nil)
    }

    @Test("a veto leaves the state alone and skips didSelect")
    func veto() throws {
        let recorder = Recorder()
        let controller = try Self.controller(recorder)
        let state = TabBarState()
        let (next, outcome) = controller.select("maps", in: state)
        #expect(outcome == .vetoed(message: "Maps needs a subscription."))
        #expect(next == state)
        #expect(recorder.events == ["should maps v0"])
        #expect(!outcome.isSuccess)
    }

    @Test(
        "disabled and unknown tabs are refused before any hook",
        arguments: [("chat", SelectionOutcome.disabled(tabID: "chat")), ("nope", .unknownTab("nope"))])
    func refused(_ id: String, _ expected: SelectionOutcome) throws {
        let recorder = Recorder()
        let controller = try Self.controller(recorder)
        var state = TabBarState()
        state.selectedTabID = "music"
        state.version = 4
        let (next, outcome) = controller.select(id, in: state)
        #expect(outcome == expected)
        #expect(next == state)
        #expect(recorder.events.isEmpty)
    }

    @Test("clearsBadgeOnSelect hides the badge for this visitor only")
    func clearsBadge() throws {
        let controller = try Self.controller(
            Recorder(),
            tabs: [
                Fixture.tab("home"),
                Fixture.tab("inbox", badge: .count(3), clearsBadge: true),
                Fixture.tab("news", badge: .text("New")),
            ])
        let (next, _) = controller.select("inbox", in: TabBarState())
        #expect(next.badgeOverrides == ["inbox": .hidden])
        #expect(controller.effectiveBadge(tabID: "inbox", state: next) == nil)
        #expect(controller.effectiveBadge(tabID: "inbox", state: TabBarState()) == .count(3))
        let (later, _) = controller.select("news", in: next)
        #expect(controller.effectiveBadge(tabID: "news", state: later) == .text("New"))
    }

    @Test("clearsBadgeOnSelect records nothing when there is no badge")
    func clearsNothing() throws {
        let controller = try Self.controller(
            Recorder(),
            tabs: [
                Fixture.tab("home"), Fixture.tab("inbox", clearsBadge: true),
            ])
        #expect(controller.select("inbox", in: TabBarState()).0.badgeOverrides.isEmpty)
    }

    @Test("an invalid stored location opens the root")
    func invalidStoredLocation() throws {
        let controller = try Self.controller(Recorder())
        var state = TabBarState()
        state.locations["music"] = "../../admin"
        #expect(controller.select("music", in: state).1 == .selected(tabID: "music", location: ""))
    }

    @Test("a removed or disabled selection resolves to the first enabled tab")
    func resolvedSelection() throws {
        let controller = try Fixture.controller(["a", "b", "c"], disabled: ["a", "c"])
        var state = TabBarState()
        #expect(controller.selectedTabID(state) == "b")
        state.selectedTabID = "c"
        #expect(controller.selectedTabID(state) == "b")
        state.selectedTabID = "gone"
        #expect(controller.selectedTabID(state) == "b")
    }
}
