// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("Appearance")
struct TabBarAppearanceTests {
    @Test("defaults are the iOS light bar")
    func defaults() {
        let look = TabBarAppearance()
        #expect(look.tint == "#007aff")
        #expect(look.unselectedTint == "#8e8e93")
        #expect(look.background == "#f9f9f9")
        #expect(look.isTranslucent)
        #expect(look.itemPositioning == .automatic)
    }

    @Test("the default CSS custom properties")
    func defaultCSS() {
        #expect(
            TabBarAppearance().cssCustomProperties
                == "--tab-tint:#007aff;--tab-unselected-tint:#8e8e93;--tab-background:#f9f9f9;"
                + "--tab-blur:20px;--tab-background-opacity:82%;--tab-item-justify:center;--tab-item-max-width:7.5rem")
    }

    @Test("opaque bars have no blur, fill spreads items, colours pass through")
    func customCSS() {
        let look = TabBarAppearance(
            tint: "red", unselectedTint: "#333", background: "#000000cc",
            isTranslucent: false, itemPositioning: .fill)
        #expect(
            look.cssCustomProperties == "--tab-tint:red;--tab-unselected-tint:#333;--tab-background:#000000cc;"
                + "--tab-blur:0px;--tab-background-opacity:100%;--tab-item-justify:space-evenly;--tab-item-max-width:none"
        )
    }

    @Test(
        "item positioning maps to justify and max width",
        arguments: [
            (TabBarAppearance.ItemPositioning.automatic, "center", "7.5rem"),
            (.centered, "center", "7.5rem"), (.fill, "space-evenly", "none"),
        ])
    func positioning(_ positioning: TabBarAppearance.ItemPositioning, _ justify: String, _ width: String) {
        let css = TabBarAppearance(itemPositioning: positioning).cssCustomProperties
        #expect(css.contains("--tab-item-justify:\(justify);"))
        #expect(css.hasSuffix("--tab-item-max-width:\(width)"))
    }

    @Test("invalid colours set in code never reach the CSS")
    func unsafeColoursReplaced() {
        let look = TabBarAppearance(
            tint: "red;background:url(javascript:x)", unselectedTint: "\"",
            background: "#fff}body{")
        #expect(look.cssCustomProperties == TabBarAppearance().cssCustomProperties)
    }

    @Test("JSON: missing keys take defaults")
    func partialJSON() throws {
        let look = try JSONDecoder().decode(
            TabBarAppearance.self, from: Data(##"{"tint":"#ff2d55","itemPositioning":"centered"}"##.utf8))
        #expect(look == TabBarAppearance(tint: "#ff2d55", itemPositioning: .centered))
    }

    @Test("JSON round trip")
    func roundTrip() throws {
        let look = TabBarAppearance(
            tint: "#111", unselectedTint: "gray", background: "black",
            isTranslucent: false, itemPositioning: .fill)
        #expect(try JSONDecoder().decode(TabBarAppearance.self, from: JSONEncoder().encode(look)) == look)
    }
}
