// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("Appearance settings: pairs, scroll edge, layouts, readable text")
struct AppearanceSettingsTests {
    @Test("light and dark pairs, standardAppearance over the top level, scrollEdgeAppearance")
    func decoding() throws {
        let json = ##"""
            {"tint": {"light": "#007aff", "dark": "#0a84ff"}, "background": "#ffffff",
             "standardAppearance": {"background": {"light": "#f9f9f9", "dark": "#101010"}, "shadowColor": "transparent"},
             "selectionIndicatorTint": "#007aff26", "scrollEdgeAppearance": true,
             "itemWidth": 96, "itemSpacing": 12, "titlePosition": "beside", "regularLayout": "sidebar"}
            """##
        let look = try JSONDecoder().decode(TabBarAppearance.self, from: Data(json.utf8))
        #expect(look.tint == "#007aff" && look.darkTint == "#0a84ff")
        #expect(look.background == "#f9f9f9" && look.darkBackground == "#101010")
        #expect(look.shadowColor == "transparent")
        #expect(look.scrollEdgeAppearance == TabBarAppearance.ScrollEdgeAppearance())
        #expect(look.regularLayout == .sidebar && look.titlePosition == .beside)
        #expect(try JSONDecoder().decode(TabBarAppearance.self, from: JSONEncoder().encode(look)) == look)
        #expect(look.cssClasses == "regular-sidebar has-selection-indicator has-scroll-edge titles-beside")
        let css = look.cssExtraProperties
        for part in [
            "--tab-tint-dark:#0a84ff", "--tab-background-dark:#101010", "--tab-selection-indicator:#007aff26",
            "--tab-shadow:transparent", "--tab-edge-background:transparent", "--tab-item-width:96px",
            "--tab-item-spacing:12px",
        ] {
            #expect(css.contains(part), "\(part) in \(css)")
        }
        #expect(look.cssCustomProperties.contains("--tab-item-max-width:96px"))
    }

    @Test("defaults: no extra classes, the system blue's dark variant, standard look at the edge")
    func defaults() {
        let look = TabBarAppearance()
        #expect(look.cssClasses == "")
        #expect(look.effectiveDarkTint == "#0a84ff")
        #expect(TabBarAppearance(tint: "#ff2d55").effectiveDarkTint == "#ff2d55")
        #expect(!look.cssExtraProperties.contains("--tab-edge-background"))
    }

    @Test("bad values are refused with the property's name")
    func validation() throws {
        let badPair =
            ##"{"appearance": {"tint": {"light": "#007aff", "dark": "url(x)"}}, "tabs": [{"id": "a", "title": "A", "icon": "a.svg"}]}"##
        #expect(throws: TabBarModelError.self) { try JSONDecoder().decode(TabBarModel.self, from: Data(badPair.utf8)) }
        var path = TabBarAppearance()
        path.backgroundImage = "../secret"
        #expect(throws: TabBarModelError.self) {
            try TabBarModel(tabs: [Tab(id: "a", title: "A", icon: "a.svg")], appearance: path)
        }
        var look = TabBarAppearance()
        look.itemWidth = 4
        #expect(throws: TabBarModelError.self) {
            try TabBarModel(tabs: [Tab(id: "a", title: "A", icon: "a.svg")], appearance: look)
        }
    }

    @Test("text in a tint is darkened only as far as 4.5:1 needs; a readable colour stays exact")
    func readableText() throws {
        let blue = try #require(ReadableColor.text("#007aff", on: ["#f9f9f9", "#f2f2f7"], towards: .black))
        #expect(blue != "#007aff")
        #expect(ReadableColor.text("#000000", on: ["#ffffff"], towards: .black) == "#000000")
        #expect(ReadableColor.text("#ffffff", on: ["#000000"], towards: .white) == "#ffffff")
        #expect(ReadableColor.text("red", on: ["#ffffff"], towards: .black) == nil)
        // Just enough: one step less would not reach 4.5:1.
        #expect(ReadableColor.contrast((0, 0x64, 0xd1), (0xf2, 0xf2, 0xf7)) > 4.4)
    }

    @Test("a tab's group is read and written")
    func group() throws {
        let tab = try JSONDecoder().decode(
            Tab.self, from: Data(##"{"id": "tv", "title": "TV", "icon": "tv.svg", "group": "Watch"}"##.utf8))
        #expect(tab.group == "Watch")
        #expect(try JSONDecoder().decode(Tab.self, from: JSONEncoder().encode(tab)) == tab)
    }
}
