// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("Tab definition JSON")
struct TabBarModelJSONTests {
    static let full = """
        {
          "appearance": {"tint": "#ff2d55", "unselectedTint": "gray", "background": "#000000cc",
                         "isTranslucent": false, "itemPositioning": "centered"},
          "tabs": [
            {"id": "home", "title": "Home", "icon": "home.svg", "selectedIcon": "home-fill.svg",
             "badge": {"text": "New", "color": "#34c759"}, "isEnabled": true, "isCustomizable": false,
             "clearsBadgeOnSelect": true, "template": "pages/home"},
            {"id": "inbox", "title": "Inbox", "icon": "inbox.svg", "badge": {"count": 120}},
            {"id": "beta", "title": "Beta", "icon": "beta.svg", "badge": {"dot": true}, "isEnabled": false}
          ]
        }
        """

    @Test("a definition with every field")
    func fullDefinition() throws {
        let model = try TabBarModel.decode(json: Self.full)
        #expect(
            model.appearance
                == TabBarAppearance(
                    tint: "#ff2d55", unselectedTint: "gray",
                    background: "#000000cc", isTranslucent: false,
                    itemPositioning: .centered))
        #expect(
            model.tabs == [
                Tab(
                    id: "home", title: "Home", icon: "home.svg", selectedIcon: "home-fill.svg",
                    badge: .text("New", color: "#34c759"), isEnabled: true, isCustomizable: false,
                    clearsBadgeOnSelect: true, template: "pages/home"),
                Tab(id: "inbox", title: "Inbox", icon: "inbox.svg", badge: .count(120)),
                Tab(id: "beta", title: "Beta", icon: "beta.svg", badge: .dot(), isEnabled: false),
            ])
    }

    @Test("a minimal definition takes every default")
    func minimalDefinition() throws {
        let model = try TabBarModel.decode(json: #"{"tabs":[{"id":"home","title":"Home","icon":"home.svg"}]}"#)
        #expect(model.appearance == TabBarAppearance())
        #expect(model.tabs == [Tab(id: "home", title: "Home", icon: "home.svg")])
        #expect(model.tabs[0].template == "home")
    }

    @Test("bytes, Data and String inputs agree")
    func inputKinds() throws {
        let bytes = Array(Self.full.utf8)
        let fromBytes = try TabBarModel.decode(json: bytes)
        #expect(try TabBarModel.decode(json: Data(bytes)) == fromBytes)
        #expect(try TabBarModel.decode(json: Self.full) == fromBytes)
    }

    @Test("encoding and decoding again gives the same model")
    func roundTrip() throws {
        let model = try TabBarModel.decode(json: Self.full)
        let data = try JSONEncoder().encode(model)
        #expect(try TabBarModel.decode(json: data) == model)
    }

    @Test(
        "JSON problems say where and what",
        arguments: [
            ("{\n  \"tabs\": [}", "invalid JSON: the text is not valid JSON; unexpected text near line 2, column 12"),
            ("", "invalid JSON: the text is not valid JSON"),
            ("[]", "invalid JSON: expected an object"),
            (#"{}"#, "invalid JSON: missing key 'tabs'"),
            (#"{"tabs": {}}"#, "invalid JSON: tabs: expected a list"),
            (
                #"{"tabs": [{"id":"a","title":"A","icon":"a.svg"}, {"id":"b","title":"B"}]}"#,
                "invalid JSON: tabs[1]: missing key 'icon'"
            ),
            (
                #"{"tabs": [{"id":"a","title":"A","icon":"a.svg","isEnabled":"yes"}]}"#,
                "invalid JSON: tabs[0].isEnabled: expected true or false"
            ),
            (
                #"{"tabs": [{"id":"a","title":"A","icon":"a.svg","badge":{}}]}"#,
                #"invalid JSON: tabs[0].badge: a badge needs exactly one of "text", "count" or "dot""#
            ),
            (
                #"{"appearance": {"itemPositioning": "sideways"}, "tabs": []}"#,
                "invalid JSON: appearance.itemPositioning: "
            ),
            (
                #"{"tabs": [{"id":"a","title":"A","icon":"a.svg","badge":{"count":"3"}}]}"#,
                "invalid JSON: tabs[0].badge.count: expected a whole number"
            ),
        ])
    func jsonErrors(_ json: String, _ messagePrefix: String) {
        do {
            _ = try TabBarModel.decode(json: json)
            Issue.record("expected an error for \(json)")
        } catch {
            #expect(error.description.hasPrefix(messagePrefix), "\(error.description)")
            if case .invalidJSON = error.reason {} else { Issue.record("not .invalidJSON: \(error)") }
        }
    }

    @Test("validation problems keep their own message")
    func validationThroughJSON() {
        let json = #"{"tabs": [{"id":"a","title":"A","icon":"a.svg"},{"id":"a","title":"B","icon":"b.svg"}]}"#
        #expect(throws: TabBarModelError(.duplicateID("a", firstIndex: 1, secondIndex: 2))) {
            try TabBarModel.decode(json: json)
        }
        #expect(throws: TabBarModelError(.noTabs)) {
            try TabBarModel.decode(json: #"{"tabs": []}"#)
        }
    }
}
