// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Reconcile against random models")
struct ReconcileFuzzTests {
    /// Ids drawn from a small pool, so states and models overlap often but not always.
    static let pool = (0..<14).map { "t\($0)" }

    static func randomModel(using rng: inout SeededGenerator) throws -> TabBarModel {
        let count = Int.random(in: 1...12, using: &rng)
        let ids = Array(pool.shuffled(using: &rng).prefix(count))
        var tabs = ids.map { id in
            Fixture.tab(
                id, fixed: Int.random(in: 0..<4, using: &rng) == 0,
                enabled: Int.random(in: 0..<5, using: &rng) != 0)
        }
        if !tabs.contains(where: \.isEnabled) {
            tabs[Int.random(in: 0..<tabs.count, using: &rng)].isEnabled = true
        }
        return try TabBarModel(tabs: tabs)
    }

    static func randomID(using rng: inout SeededGenerator) -> String {
        Int.random(in: 0..<10, using: &rng) == 0 ? "Bad id!" : pool.randomElement(using: &rng)!
    }

    static func randomState(using rng: inout SeededGenerator) -> TabBarState {
        var state = TabBarState()
        if Bool.random(using: &rng) { state.selectedTabID = randomID(using: &rng) }
        if Int.random(in: 0..<4, using: &rng) != 0 {
            state.order = (0..<Int.random(in: 0...20, using: &rng)).map { _ in randomID(using: &rng) }
        }
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            state.locations[randomID(using: &rng)] = ["", "a/b", "../x", "x//y", "albums/12"].randomElement(
                using: &rng)!
        }
        for _ in 0..<Int.random(in: 0...4, using: &rng) {
            state.badgeOverrides[randomID(using: &rng)] =
                [.hidden, .badge(.count(Int.random(in: -2...200, using: &rng))), .badge(.dot(color: "url(x)"))]
                .randomElement(using: &rng)!
        }
        state.version = Int.random(in: 0...Int.max, using: &rng)
        return state
    }

    /// The invariants every reconciled state must hold.
    static func checkInvariants(_ state: TabBarState, _ controller: TabBarController) {
        let model = controller.model
        let order = controller.effectiveOrder(state)
        #expect(order.sorted() == model.defaultOrder.sorted(), "order is a permutation of the model's ids")
        for (index, tab) in model.tabs.enumerated() where !tab.isCustomizable {
            #expect(order[index] == tab.id, "fixed tab \(tab.id) at its model index")
        }
        if let stored = state.order {
            #expect(stored == order)
            #expect(stored != model.defaultOrder)
        }
        let selected = controller.selectedTabID(state)
        #expect(model.tab(id: selected)?.isEnabled == true)
        if let explicit = state.selectedTabID { #expect(explicit == selected) }
        #expect(state.locations.keys.allSatisfy { model.tab(id: $0) != nil })
        #expect(state.locations.values.allSatisfy { !$0.isEmpty && TabBarController.isValidLocation($0) })
        #expect(state.badgeOverrides.keys.allSatisfy { model.tab(id: $0) != nil })
        let layout = controller.layout(state)
        #expect(layout.count == model.tabs.count)
        #expect(layout.items.filter(\.isSelected).count == 1)
    }

    @Test("1,000 random states against random models keep every invariant")
    func randomStates() throws {
        var rng = SeededGenerator(seed: 0x7AB_BA12)
        for _ in 0..<1_000 {
            let controller = TabBarController(model: try Self.randomModel(using: &rng))
            let state = Self.randomState(using: &rng)
            let reconciled = controller.reconciled(state)
            Self.checkInvariants(reconciled, controller)
            #expect(controller.effectiveOrder(state) == controller.effectiveOrder(reconciled))
            #expect(controller.reconciled(reconciled) == reconciled, "reconcile is idempotent")
            #expect(reconciled.version == state.version || reconciled.version == state.version &+ 1)
        }
    }

    @Test("random customizations on random models keep every invariant")
    func randomActions() throws {
        var rng = SeededGenerator(seed: 42)
        for _ in 0..<300 {
            let controller = TabBarController(model: try Self.randomModel(using: &rng))
            var state = controller.reconciled(Self.randomState(using: &rng))
            for _ in 0..<10 {
                let id = Self.randomID(using: &rng)
                let action: CustomizationAction =
                    switch Int.random(in: 0..<6, using: &rng) {
                    case 0: .moveUp(id)
                    case 1: .moveDown(id)
                    case 2: .moveToBar(id)
                    case 3: .moveToMore(id)
                    case 4: .reset
                    default: .setOrder(controller.effectiveOrder(state).shuffled(using: &rng))
                    }
                do {
                    let next = try controller.apply(action, to: state, expectedVersion: state.version)
                    #expect(next.version == state.version &+ 1)
                    state = next
                } catch {
                    #expect(!error.isStale)
                }
                Self.checkInvariants(state, controller)
            }
        }
    }
}
