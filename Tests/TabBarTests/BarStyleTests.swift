// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("barStyle: the classic bar or iOS 26's floating capsule, read, written and named on the page")
struct BarStyleTests {
    private static func model(appearance: String) -> String {
        #"{"appearance": \#(appearance), "tabs": [{"id": "one", "title": "One", "icon": "one.svg"}]}"#
    }

    @Test("classic by default; classic and floating are read and written back")
    func decoding() throws {
        #expect(TabBarAppearance().barStyle == .classic)
        #expect(try TabBarModel.decode(json: Self.model(appearance: "{}")).appearance.barStyle == .classic)
        for style in TabBarAppearance.BarStyle.allCases {
            let model = try TabBarModel.decode(json: Self.model(appearance: #"{"barStyle": "\#(style.rawValue)"}"#))
            #expect(model.appearance.barStyle == style)
            let again = try TabBarModel.decode(json: JSONEncoder().encode(model))
            #expect(again.appearance == model.appearance)
        }
    }

    @Test(
        "a value that is no style is refused with a message naming the key and the choices",
        arguments: [
            (#""glass""#, "appearance.barStyle: unknown bar style 'glass' (use \"classic\" or \"floating\")"),
            (#""Floating""#, "appearance.barStyle: unknown bar style 'Floating'"),
            (#""""#, "appearance.barStyle: unknown bar style ''"),
            ("true", "appearance.barStyle: expected a string"),
            ("2", "appearance.barStyle: expected a string"),
        ])
    func refused(_ value: String, _ message: String) {
        #expect {
            try TabBarModel.decode(json: Self.model(appearance: #"{"barStyle": \#(value)}"#))
        } throws: { error in
            guard let error = error as? TabBarModelError else { return false }
            return error.description.contains(message)
        }
    }

    @Test("the body's classes name the floating style; classic adds none")
    func classes() {
        var look = TabBarAppearance()
        #expect(!look.cssClasses.contains("bar-"))
        look.barStyle = .floating
        #expect(look.cssClasses == "bar-floating")
        look.minimizeBehavior = .onScrollDown
        look.regularLayout = .sidebar
        #expect(look.cssClasses == "regular-sidebar minimizes-bar minimize-on-scroll-down bar-floating")
        #expect(look.cssClasses(sidebarHidden: true).hasSuffix(" bar-floating"))
    }
}
