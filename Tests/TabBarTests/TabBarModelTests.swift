// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Model")
struct TabBarModelTests {
    @Test("look-ups, default order and first enabled tab")
    func basics() throws {
        let model = try Fixture.model(["home", "music", "news"], disabled: ["home"])
        #expect(model.tab(id: "music")?.title == "Music")
        #expect(model.tab(id: "nope") == nil)
        #expect(model.index(of: "news") == 2)
        #expect(model.defaultOrder == ["home", "music", "news"])
        #expect(model.firstEnabledTabID == "music")
    }

    @Test("a tab is found by id in a model of a few tabs and of many, long ids and short alike")
    func lookUpsAtEverySize() throws {
        for count in [1, 2, 15, 16, 17, 40] {
            // Short ids (stored inline in the string) and long ones (on the heap), and ids
            // that share a prefix, so a look-up that compared only part of an id fails.
            let ids = (0..<count).map { $0 % 2 == 0 ? "t\($0)" : "a-long-tab-identifier-number-\($0)" }
            let model = try Fixture.model(ids)
            for (index, id) in ids.enumerated() {
                #expect(model.index(of: String(id.utf8.map { Character(UnicodeScalar($0)) })) == index)
                #expect(model.contains(id: id))
                #expect(model.tab(id: id)?.id == id)
            }
            for unknown in ["", "t", "t\(count)", "a-long-tab-identifier-number-", "T0", "t0 "] {
                #expect(model.index(of: unknown) == nil, "\(unknown) in \(count) tabs")
                #expect(!model.isEnabled(id: unknown))
            }
        }
    }

    @Test("bar capacities follow UIKit: 5 on a phone, 8 on a wide screen")
    func capacities() {
        #expect(TabBarModel.compactBarCapacity == 5)
        #expect(TabBarModel.regularBarCapacity == 8)
    }

    @Test("a model is equal to one built from the same tabs")
    func equality() throws {
        #expect(try Fixture.model(["a", "b"]) == Fixture.model(["a", "b"]))
        #expect(try Fixture.model(["a", "b"]) != Fixture.model(["b", "a"]))
    }

    static let invalidDefinitions: [(String, [Tab], TabBarAppearance, String)] = [
        ("no tabs", [], .init(), "no tabs"),
        (
            "all disabled", [Fixture.tab("a", enabled: false), Fixture.tab("b", enabled: false)], .init(),
            "no enabled tab"
        ),
        (
            "bad id", [Fixture.tab("a"), Fixture.tab("b"), Tab(id: "Music!", title: "Music", icon: "m.svg")], .init(),
            "tab 3: invalid id 'Music!' (use a-z, 0-9, -; start with a letter; at most 32 characters)"
        ),
        (
            "empty id", [Tab(id: "", title: "X", icon: "x.svg")], .init(),
            "tab 1: invalid id '' (use a-z, 0-9, -; start with a letter; at most 32 characters)"
        ),
        (
            "duplicate id", ["a", "music", "b", "c", "music"].map { Fixture.tab($0) }, .init(),
            "duplicate tab id 'music' (tabs 2 and 5)"
        ),
        ("blank title", [Tab(id: "x", title: " \t ", icon: "x.svg")], .init(), "tab 'x': empty title"),
        (
            "icon climbing out", [Tab(id: "x", title: "X", icon: "../secret.svg")], .init(),
            "tab 'x': invalid icon file name '../secret.svg' (use a relative path of letters, digits, '.', '_', '-')"
        ),
        (
            "bad selected icon", [Tab(id: "x", title: "X", icon: "x.svg", selectedIcon: "x fill.svg")], .init(),
            "tab 'x': invalid icon file name 'x fill.svg' (use a relative path of letters, digits, '.', '_', '-')"
        ),
        (
            "absolute template", [Tab(id: "x", title: "X", icon: "x.svg", template: "/etc/passwd")], .init(),
            "tab 'x': invalid template name '/etc/passwd' (use a relative path of letters, digits, '.', '_', '-')"
        ),
        (
            "badge colour", [Fixture.tab("x", badge: .dot(color: "url(javascript:..)"))], .init(),
            "tab 'x': invalid colour 'url(javascript:..)' for the badge (use #rgb, #rrggbb, #rrggbbaa or a colour name of a-z)"
        ),
        ("badge text", [Fixture.tab("x", badge: .text(""))], .init(), "tab 'x': badge text is empty"),
        ("badge count", [Fixture.tab("x", badge: .count(-3))], .init(), "tab 'x': badge count -3 is negative"),
        (
            "appearance tint", [Fixture.tab("x")], TabBarAppearance(tint: "red;x"),
            "appearance: invalid colour 'red;x' for tint (use #rgb, #rrggbb, #rrggbbaa or a colour name of a-z)"
        ),
        (
            "appearance background", [Fixture.tab("x")], TabBarAppearance(background: "#12"),
            "appearance: invalid colour '#12' for background (use #rgb, #rrggbb, #rrggbbaa or a colour name of a-z)"
        ),
    ]

    @Test("each validation problem has a message naming it", arguments: invalidDefinitions)
    func validation(_ name: String, _ tabs: [Tab], _ appearance: TabBarAppearance, _ message: String) {
        #expect(throws: TabBarModelError.self, "\(name)") {
            try TabBarModel(tabs: tabs, appearance: appearance)
        }
        do {
            _ = try TabBarModel(tabs: tabs, appearance: appearance)
        } catch {
            #expect(error.description == message, "\(name)")
        }
    }

    @Test("errors carry a typed reason")
    func typedReason() {
        #expect(throws: TabBarModelError(.duplicateID("a", firstIndex: 1, secondIndex: 2))) {
            try TabBarModel(tabs: [Fixture.tab("a"), Fixture.tab("a")])
        }
    }

    @Test("quoted input is cut short and made printable")
    func quoting() {
        let long = TabBarModelError(.invalidID(String(repeating: "X", count: 100), index: 1))
        #expect(long.description.contains("'" + String(repeating: "X", count: 40) + "…'"))
        let control = TabBarModelError(.invalidID("a\nb\u{1B}", index: 1))
        #expect(control.description.hasPrefix("tab 1: invalid id 'a?b?'"))
    }
}
