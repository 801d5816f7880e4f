// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar
import Testing

@Suite("Locations")
struct LocationTests {
    static let sixteenSegments = Array(repeating: "a", count: 16).joined(separator: "/")
    static let bytes256 = String(repeating: "a", count: 256)

    @Test(
        "valid locations",
        arguments: ["", "albums", "albums/12/tracks/3", "A-Z_a.z~0", "..a", "a.", "...", sixteenSegments, bytes256])
    func valid(_ location: String) {
        #expect(TabBarController.isValidLocation(location))
        #expect(TabBarState.isValidLocation(location))
    }

    @Test(
        "invalid locations",
        arguments: [
            "/", "/albums", "albums/", "a//b", ".", "..", "a/./b", "a/../b", "a b", "a?b", "a#b",
            "a%20b", "é", "a\\b", sixteenSegments + "/a", bytes256 + "a",
        ])
    func invalid(_ location: String) {
        #expect(!TabBarController.isValidLocation(location))
    }

    @Test("GET / restores the selected tab at its remembered location")
    func restoration() throws {
        let controller = try Fixture.controller()
        #expect(controller.restorationTarget(TabBarState()) == ("home", ""))
        let (state, _) = controller.visit("books", location: "shelf/2", in: TabBarState())
        let target = controller.restorationTarget(state)
        #expect(target.tabID == "books")
        #expect(target.location == "shelf/2")
        #expect(controller.location(ofTab: "home", in: state) == "")
    }
}
