// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Customization (More → Edit)")
struct CustomizationTests {
    /// Applies `action` to a state with `order` at version 0 and returns the new order.
    static func order(
        after action: CustomizationAction, from order: [String]? = nil,
        in controller: TabBarController
    ) throws(CustomizationError) -> [String] {
        var state = TabBarState()
        state.order = order
        return controller.effectiveOrder(try controller.apply(action, to: state, expectedVersion: 0))
    }

    /// The error `action` throws on a fresh state of `controller`.
    static func error(_ action: CustomizationAction, in controller: TabBarController) -> CustomizationError? {
        do {
            _ = try controller.apply(action, to: TabBarState(), expectedVersion: 0)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Up and down

    @Test("up and down swap with the neighbour")
    func upDown() throws {
        let controller = try Fixture.controller(["a", "b", "c"])
        #expect(try Self.order(after: .moveUp("b"), in: controller) == ["b", "a", "c"])
        #expect(try Self.order(after: .moveDown("b"), in: controller) == ["a", "c", "b"])
    }

    @Test("up and down skip fixed tabs, which stay put")
    func skipFixed() throws {
        let controller = try Fixture.controller(["a", "x", "y", "b"], fixed: ["x", "y"])
        #expect(try Self.order(after: .moveUp("b"), in: controller) == ["b", "x", "y", "a"])
        #expect(try Self.order(after: .moveDown("a"), in: controller) == ["b", "x", "y", "a"])
    }

    @Test("the first customizable tab cannot go up, the last cannot go down")
    func edges() throws {
        let controller = try Fixture.controller(["x", "a", "b", "y"], fixed: ["x", "y"])
        #expect(Self.error(.moveUp("a"), in: controller) == .cannotMove("a", reason: .alreadyFirst))
        #expect(Self.error(.moveDown("b"), in: controller) == .cannotMove("b", reason: .alreadyLast))
    }

    @Test(
        "fixed and unknown tabs cannot move",
        arguments: [CustomizationAction.moveUp("home"), .moveDown("home"), .moveToBar("home"), .moveToMore("home")])
    func fixedAndUnknown(_ action: CustomizationAction) throws {
        let controller = try Fixture.controller(fixed: ["home"])
        #expect(Self.error(action, in: controller) == .notCustomizable("home"))
        let unknown: CustomizationAction =
            switch action {
            case .moveUp: .moveUp("zzz")
            case .moveDown: .moveDown("zzz")
            case .moveToBar: .moveToBar("zzz")
            default: .moveToMore("zzz")
            }
        #expect(Self.error(unknown, in: controller) == .unknownTab("zzz"))
    }

    // MARK: Bar and More

    @Test("moving into the bar takes the last bar place; that tab becomes first in More")
    func moveToBar() throws {
        let controller = try Fixture.controller(["a", "b", "c", "d", "e", "f", "g"])
        #expect(try Self.order(after: .moveToBar("g"), in: controller) == ["a", "b", "c", "g", "d", "e", "f"])
        #expect(try Self.order(after: .moveToBar("e"), in: controller) == ["a", "b", "c", "e", "d", "f", "g"])
    }

    @Test("moving to More swaps with the first tab in More")
    func moveToMore() throws {
        let controller = try Fixture.controller(["a", "b", "c", "d", "e", "f", "g"])
        #expect(try Self.order(after: .moveToMore("b"), in: controller) == ["a", "e", "c", "d", "b", "f", "g"])
    }

    @Test("bar moves pass over fixed tabs in the bar and in More")
    func barMovesWithFixedTabs() throws {
        let fixedInBar = try Fixture.controller(["a", "b", "c", "x", "e", "f"], fixed: ["x"])
        #expect(try Self.order(after: .moveToBar("f"), in: fixedInBar) == ["a", "b", "f", "x", "c", "e"])
        let fixedInMore = try Fixture.controller(["a", "b", "c", "d", "x", "f"], fixed: ["x"])
        #expect(try Self.order(after: .moveToMore("a"), in: fixedInMore) == ["f", "b", "c", "d", "x", "a"])
    }

    static let impossibleMoves: [([String], Set<String>, CustomizationAction, CustomizationError)] = [
        (["a", "b", "c", "d", "e", "f"], [], .moveToBar("b"), .cannotMove("b", reason: .alreadyInBar)),
        (["a", "b", "c", "d", "e", "f"], [], .moveToMore("e"), .cannotMove("e", reason: .alreadyInMore)),
        (["a", "b", "c", "d", "e"], [], .moveToBar("e"), .cannotMove("e", reason: .noMoreList)),
        (["a", "b", "c", "d", "e"], [], .moveToMore("a"), .cannotMove("a", reason: .noMoreList)),
        (["w", "x", "y", "z", "e", "f"], ["w", "x", "y", "z"], .moveToBar("f"), .cannotMove("f", reason: .noBarSlot)),
        (["a", "b", "c", "d", "y", "z"], ["y", "z"], .moveToMore("a"), .cannotMove("a", reason: .noMoreSlot)),
    ]

    @Test("impossible bar moves name the reason", arguments: impossibleMoves)
    func impossible(
        _ ids: [String], _ fixed: Set<String>, _ action: CustomizationAction, _ expected: CustomizationError
    ) throws {
        let controller = try Fixture.controller(ids, fixed: fixed)
        #expect(Self.error(action, in: controller) == expected)
    }

    // MARK: Reset and posted orders

    @Test("reset goes back to the default order")
    func reset() throws {
        let controller = try Fixture.controller()
        var state = TabBarState()
        state.order = Fixture.seven.reversed()
        state.version = 3
        let next = try controller.apply(.reset, to: state, expectedVersion: 3)
        #expect(next.order == nil)
        #expect(next.version == 4)
    }

    @Test("a posted full order is taken as is")
    func setOrder() throws {
        let controller = try Fixture.controller(["a", "x", "b", "c"], fixed: ["x"])
        let next = try controller.apply(.setOrder(["c", "x", "a", "b"]), to: TabBarState(), expectedVersion: 0)
        #expect(next.order == ["c", "x", "a", "b"])
    }

    @Test(
        "a bad posted order is refused with the reason",
        arguments: [
            (["a", "x", "a", "b"], CustomizationError.duplicateInOrder("a")),
            (["a", "x", "b", "zzz"], .unknownTab("zzz")),
            (["a", "x", "b"], .invalidOrder(reason: "tab 'c' is missing")),
            (["x", "a", "b", "c"], .invalidOrder(reason: "tab 'x' is not customizable and must stay at position 2")),
        ])
    func badOrder(_ posted: [String], _ expected: CustomizationError) throws {
        let controller = try Fixture.controller(["a", "x", "b", "c"], fixed: ["x"])
        #expect(Self.error(.setOrder(posted), in: controller) == expected)
    }

    // MARK: Versions

    @Test(
        "every successful action moves the version on by exactly one",
        arguments: [
            CustomizationAction.moveUp("music"), .moveDown("music"), .moveToBar("chat"),
            .moveToMore("music"), .reset, .setOrder(Fixture.seven),
        ])
    func versionBump(_ action: CustomizationAction) throws {
        let controller = try Fixture.controller()
        var state = TabBarState()
        state.version = 41
        #expect(try controller.apply(action, to: state, expectedVersion: 41).version == 42)
    }

    @Test("a stale form is refused before anything else")
    func stale() throws {
        let controller = try Fixture.controller(fixed: ["home"])
        var state = TabBarState()
        state.version = 5
        for action in [CustomizationAction.moveUp("nope"), .moveUp("home"), .reset, .setOrder([])] {
            #expect(throws: CustomizationError.stale(currentVersion: 5)) {
                try controller.apply(action, to: state, expectedVersion: 4)
            }
        }
    }

    @Test("moving back to the default order stores no order")
    func backToDefault() throws {
        let controller = try Fixture.controller()
        let moved = try controller.apply(.moveUp("music"), to: TabBarState(), expectedVersion: 0)
        #expect(moved.order != nil)
        let back = try controller.apply(.moveDown("music"), to: moved, expectedVersion: 1)
        #expect(back.order == nil)
        #expect(back.version == 2)
    }

    @Test("moves work on the effective order of a state saved under an older model")
    func movesOnStaleOrder() throws {
        let controller = try Fixture.controller(["a", "b", "c"])
        var state = TabBarState()
        state.order = ["c", "gone", "a", "c"]
        #expect(controller.effectiveOrder(state) == ["c", "b", "a"])
        let next = try controller.apply(.moveUp("b"), to: state, expectedVersion: 0)
        #expect(next.order == ["b", "c", "a"])
    }

    // MARK: Hooks and messages

    @Test("begin and end tell the hooks, end says whether the order changed")
    func hooks() throws {
        let recorder = Recorder()
        let controller = try Fixture.controller(
            hooks: TabBarHooks(
                willBeginCustomizing: { state in recorder.record("begin v\(state.version)") },
                didEndCustomizing: { state, changed in recorder.record("end v\(state.version) \(changed)") }))
        let initial = TabBarState()
        controller.beginCustomizing(initial)
        let moved = try controller.apply(.moveToBar("chat"), to: initial, expectedVersion: 0)
        controller.endCustomizing(initial: initial, final: moved)
        let back = try controller.apply(.reset, to: moved, expectedVersion: 1)
        controller.endCustomizing(initial: initial, final: back)
        #expect(recorder.events == ["begin v0", "end v1 true", "end v2 false"])
    }

    @Test(
        "error messages read as sentences",
        arguments: [
            (
                CustomizationError.stale(currentVersion: 7),
                "the tab order was changed elsewhere (now version 7); reload and try again"
            ),
            (.unknownTab("x"), "unknown tab 'x'"),
            (.notCustomizable("home"), "tab 'home' cannot be moved: it is not customizable"),
            (.cannotMove("a", reason: .alreadyFirst), "cannot move tab 'a': it is already first"),
            (.cannotMove("a", reason: .alreadyLast), "cannot move tab 'a': it is already last"),
            (.cannotMove("a", reason: .alreadyInBar), "cannot move tab 'a': it is already in the bar"),
            (.cannotMove("a", reason: .alreadyInMore), "cannot move tab 'a': it is already in More"),
            (
                .cannotMove("a", reason: .noMoreList),
                "cannot move tab 'a': there is no More list with 5 tabs or fewer"
            ),
            (.cannotMove("a", reason: .noBarSlot), "cannot move tab 'a': every place in the bar holds a fixed tab"),
            (
                .cannotMove("a", reason: .noMoreSlot),
                "cannot move tab 'a': every tab in More is fixed, so none can take its place"
            ),
            (.duplicateInOrder("a"), "tab 'a' appears more than once in the order"),
            (.invalidOrder(reason: "tab 'c' is missing"), "invalid tab order: tab 'c' is missing"),
        ])
    func messages(_ error: CustomizationError, _ message: String) {
        #expect(error.description == message)
        #expect(error.isStale == (message.hasPrefix("the tab order was changed")))
    }
}
