// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerTabBar
import Testing

@Suite("minimizeBehavior (iOS 26's tabBarMinimizeBehavior): read, written, and named on the page")
struct MinimizeBehaviorTests {
    @Test("never by default; onScrollDown and onScrollUp are read and written back")
    func decoding() throws {
        #expect(TabBarAppearance().minimizeBehavior == .never)
        #expect(try JSONDecoder().decode(TabBarAppearance.self, from: Data("{}".utf8)).minimizeBehavior == .never)
        for behavior in TabBarAppearance.MinimizeBehavior.allCases {
            let json = #"{"minimizeBehavior": "\#(behavior.rawValue)"}"#
            let look = try JSONDecoder().decode(TabBarAppearance.self, from: Data(json.utf8))
            #expect(look.minimizeBehavior == behavior)
            #expect(try JSONDecoder().decode(TabBarAppearance.self, from: JSONEncoder().encode(look)) == look)
        }
    }

    @Test("an unknown behaviour is refused")
    func unknown() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(TabBarAppearance.self, from: Data(#"{"minimizeBehavior": "sometimes"}"#.utf8))
        }
    }

    @Test("the body's classes name the behaviour; never adds none")
    func classes() {
        var look = TabBarAppearance()
        #expect(!look.cssClasses.contains("minimize"))
        look.minimizeBehavior = .onScrollDown
        #expect(look.cssClasses == "minimizes-bar minimize-on-scroll-down")
        look.minimizeBehavior = .onScrollUp
        look.regularLayout = .sidebar
        #expect(look.cssClasses == "regular-sidebar minimizes-bar minimize-on-scroll-up")
    }
}
