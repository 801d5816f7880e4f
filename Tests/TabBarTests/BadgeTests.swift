// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("Badge")
struct BadgeTests {
    @Test(
        "display text caps counts at 99+ and draws no text for a dot",
        arguments: [
            (Badge.Value.count(0), "0"), (.count(7), "7"), (.count(99), "99"),
            (.count(100), "99+"), (.count(12_345), "99+"), (.text("New"), "New"), (.dot, ""),
        ])
    func displayText(_ value: Badge.Value, _ expected: String) {
        #expect(Badge(value).displayText == expected)
    }

    @Test(
        "accessible text gives counts exactly and describes a dot",
        arguments: [
            (Badge.Value.count(3), "3"), (.count(120), "120"), (.text("New"), "New"),
            (.dot, "new content"),
        ])
    func accessibleText(_ value: Badge.Value, _ expected: String) {
        #expect(Badge(value).accessibleText == expected)
    }

    @Test(
        "validation names the problem",
        arguments: [
            (Badge.text("  "), "badge text is empty"),
            (.text(String(repeating: "x", count: 17)), "badge text is longer than 16 characters"),
            (.count(-1), "badge count -1 is negative"),
            (.dot(color: "red;x"), "invalid badge colour 'red;x'"),
        ])
    func invalid(_ badge: Badge, _ problem: String) {
        #expect(badge.validationProblem == problem)
        #expect(!badge.isValid)
    }

    @Test(
        "valid badges have no problem",
        arguments: [Badge.text("New"), .count(0), .count(1_000), .dot(), .dot(color: "#ff3b30")])
    func valid(_ badge: Badge) {
        #expect(badge.validationProblem == nil)
    }

    @Test(
        "JSON has one key per kind plus an optional colour",
        arguments: [
            (#"{"text":"New"}"#, Badge.text("New")),
            (##"{"count":3,"color":"#ff3b30"}"##, .count(3, color: "#ff3b30")),
            (#"{"dot":true}"#, .dot()),
        ])
    func json(_ json: String, _ badge: Badge) throws {
        #expect(try JSONDecoder().decode(Badge.self, from: Data(json.utf8)) == badge)
        let encoded = try JSONEncoder().encode(badge)
        #expect(try JSONDecoder().decode(Badge.self, from: encoded) == badge)
    }

    @Test(
        "JSON without exactly one kind, or with a false dot, is refused",
        arguments: [#"{}"#, #"{"color":"red"}"#, #"{"text":"a","count":1}"#, #"{"dot":false}"#])
    func badJSON(_ json: String) {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Badge.self, from: Data(json.utf8))
        }
    }
}
