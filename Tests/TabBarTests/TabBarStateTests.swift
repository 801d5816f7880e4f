// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("State")
struct TabBarStateTests {
    @Test("a fresh state follows the model")
    func fresh() {
        let state = TabBarState()
        #expect(state.selectedTabID == nil)
        #expect(state.order == nil)
        #expect(state.locations.isEmpty)
        #expect(state.badgeOverrides.isEmpty)
        #expect(state.version == 0)
    }

    @Test("JSON round trip keeps everything")
    func roundTrip() throws {
        var state = TabBarState()
        state.selectedTabID = "music"
        state.order = ["music", "home"]
        state.locations = ["music": "albums/12"]
        state.badgeOverrides = ["home": .hidden, "music": .badge(.count(4, color: "red"))]
        state.version = 17
        #expect(try JSONDecoder().decode(TabBarState.self, from: JSONEncoder().encode(state)) == state)
    }

    @Test("a fresh state encodes to just its version, and {} decodes to a fresh state")
    func compact() throws {
        #expect(String(decoding: try JSONEncoder().encode(TabBarState()), as: UTF8.self) == #"{"version":0}"#)
        #expect(try JSONDecoder().decode(TabBarState.self, from: Data("{}".utf8)) == TabBarState())
    }

    @Test(
        "badge overrides are stored as {hidden: true} or {badge: …}",
        arguments: [
            (BadgeOverride.hidden, #"{"hidden":true}"#),
            (.badge(.text("Hi")), #"{"badge":{"text":"Hi"}}"#),
        ])
    func overrideJSON(_ override: BadgeOverride, _ json: String) throws {
        #expect(String(decoding: try JSONEncoder().encode(override), as: UTF8.self) == json)
        #expect(try JSONDecoder().decode(BadgeOverride.self, from: Data(json.utf8)) == override)
    }

    @Test("an empty badge override is refused")
    func emptyOverride() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(BadgeOverride.self, from: Data(#"{"hidden":false}"#.utf8))
        }
    }
}
