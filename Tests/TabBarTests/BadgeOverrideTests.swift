// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Per-visitor badges")
struct BadgeOverrideTests {
    static func controller() throws -> TabBarController {
        TabBarController(
            model: try TabBarModel(tabs: [
                Fixture.tab("home"), Fixture.tab("inbox", badge: .count(3)),
            ]))
    }

    @Test("the model's badge shows until the visitor has an override")
    func overrides() throws {
        let controller = try Self.controller()
        var state = TabBarState()
        #expect(controller.effectiveBadge(tabID: "inbox", state: state) == .count(3))
        #expect(controller.effectiveBadge(tabID: "home", state: state) == nil)

        state = controller.setBadge(.hidden, forTab: "inbox", in: state)
        #expect(controller.effectiveBadge(tabID: "inbox", state: state) == nil)
        #expect(state.version == 1)

        state = controller.setBadge(.badge(.text("Hi", color: "#ff9500")), forTab: "home", in: state)
        #expect(controller.effectiveBadge(tabID: "home", state: state) == .text("Hi", color: "#ff9500"))
        #expect(state.version == 2)

        state = controller.setBadge(nil, forTab: "inbox", in: state)
        #expect(controller.effectiveBadge(tabID: "inbox", state: state) == .count(3))
        #expect(state.version == 3)
    }

    @Test("setting the same override again changes nothing")
    func noChange() throws {
        let controller = try Self.controller()
        let once = controller.setBadge(.hidden, forTab: "inbox", in: TabBarState())
        #expect(controller.setBadge(.hidden, forTab: "inbox", in: once) == once)
        #expect(controller.setBadge(nil, forTab: "home", in: once) == once)
    }

    @Test(
        "unknown tabs and invalid badges are ignored",
        arguments: [
            ("nope", BadgeOverride.hidden), ("home", .badge(.dot(color: "red;x"))),
            ("home", .badge(.count(-1))), ("home", .badge(.text(""))),
        ])
    func ignored(_ id: String, _ override: BadgeOverride) throws {
        let controller = try Self.controller()
        #expect(controller.setBadge(override, forTab: id, in: TabBarState()) == TabBarState())
    }

    @Test("an invalid stored override falls back to the model's badge")
    func invalidStored() throws {
        let controller = try Self.controller()
        var state = TabBarState()
        state.badgeOverrides["inbox"] = .badge(.dot(color: "url(javascript:x)"))
        #expect(controller.effectiveBadge(tabID: "inbox", state: state) == .count(3))
        #expect(controller.effectiveBadge(tabID: "nope", state: state) == nil)
    }
}
