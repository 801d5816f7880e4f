// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("CSS colours")
struct CSSColorTests {
    @Test(
        "hex and lowercase names are accepted",
        arguments: [
            "#fff", "#FFF", "#007aff", "#007AFF", "#007aff80", "red", "rebeccapurple",
            "transparent", "lightgoldenrodyellow",
        ])
    func accepted(_ colour: String) {
        #expect(CSSColor.isValid(colour))
    }

    @Test(
        "anything that could escape a style attribute is refused",
        arguments: [
            "", "#", "#ff", "#ffff", "#fffff", "#fffffff", "#fffffffff", "#ggg", "Red",
            "url(javascript:alert(1))", "red;background:blue", "#fff;", " red", "red ",
            "rgb(0,0,0)", "var(--x)", "\"red\"", "red\n", String(repeating: "a", count: 33),
        ])
    func refused(_ colour: String) {
        #expect(!CSSColor.isValid(colour))
    }
}
