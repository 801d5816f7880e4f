// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("Tab")
struct TabTests {
    @Test("the memberwise initializer defaults like UIKit: enabled, customizable, template = id")
    func defaults() {
        let tab = Tab(id: "music", title: "Music", icon: "music.svg")
        #expect(tab.selectedIcon == nil)
        #expect(tab.badge == nil)
        #expect(tab.isEnabled)
        #expect(tab.isCustomizable)
        #expect(!tab.clearsBadgeOnSelect)
        #expect(tab.template == "music")
    }

    @Test("the selected icon falls back to the icon")
    func selectedIcon() {
        let plain = Tab(id: "music", title: "Music", icon: "music.svg")
        let filled = Tab(id: "music", title: "Music", icon: "music.svg", selectedIcon: "music-fill.svg")
        #expect(plain.icon(selected: true) == "music.svg")
        #expect(filled.icon(selected: true) == "music-fill.svg")
        #expect(filled.icon(selected: false) == "music.svg")
    }

    @Test(
        "ids are 1–32 of a-z, 0-9, -, starting with a letter",
        arguments: [
            ("a", true), ("music", true), ("top-40", true), ("a1", true),
            (String(repeating: "a", count: 32), true),
            ("", false), ("1abc", false), ("-a", false), ("Music", false), ("a_b", false),
            ("a b", false), ("a/b", false), ("é", false), (String(repeating: "a", count: 33), false),
        ])
    func idSyntax(_ id: String, _ valid: Bool) {
        #expect(Tab.isValidID(id) == valid)
    }

    @Test("JSON round trip keeps every field")
    func roundTrip() throws {
        let tab = Tab(
            id: "music", title: "Music", icon: "music.svg", selectedIcon: "music-fill.svg",
            badge: .count(3, color: "#ff3b30"), isEnabled: false, isCustomizable: false,
            clearsBadgeOnSelect: true, template: "pages/music")
        let decoded = try JSONDecoder().decode(Tab.self, from: JSONEncoder().encode(tab))
        #expect(decoded == tab)
    }

    @Test("missing optional keys take the defaults")
    func minimalJSON() throws {
        let json = #"{"id":"news","title":"News","icon":"news.svg"}"#
        let tab = try JSONDecoder().decode(Tab.self, from: Data(json.utf8))
        #expect(tab == Tab(id: "news", title: "News", icon: "news.svg"))
    }
}
