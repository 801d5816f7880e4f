// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// Each item's place among the items a person sees in the bar, at compact and at
/// regular width: "tab 4 of 5" counts what is on screen (the tabs in the bar, More,
/// then pinned tabs and the search tab), as VoiceOver does in UIKit, not every tab of the model.
package struct BarPositions {
    /// Position and count by tab id, for the tabs in the compact bar.
    package var compact: [String: (Int, Int)] = [:]
    /// The same at regular width.
    package var regular: [String: (Int, Int)] = [:]
    /// More's place at compact width, when the compact bar shows it.
    package var moreCompact: (Int, Int)?
    /// More's place at regular width, when the regular bar shows it.
    package var moreRegular: (Int, Int)?

    package init(_ layout: TabBarLayout) {
        (compact, moreCompact) = Self.places(
            layout.compactBarItems, showsMore: layout.showsMoreCompact)
        (regular, moreRegular) = Self.places(
            layout.regularBarItems, showsMore: layout.showsMoreRegular)
    }

    private static func places(_ bar: [TabBarLayout.Item], showsMore: Bool) -> ([String: (Int, Int)], (Int, Int)?) {
        // Pinned tabs and the search tab come after More.
        let tabs = bar.filter { !$0.tab.isTrailing }
        let trailing = bar.filter(\.tab.isTrailing)
        let more = showsMore ? 1 : 0
        let count = tabs.count + more + trailing.count
        var places: [String: (Int, Int)] = [:]
        for (offset, item) in tabs.enumerated() { places[item.tab.id] = (offset + 1, count) }
        for (offset, item) in trailing.enumerated() { places[item.tab.id] = (tabs.count + more + offset + 1, count) }
        return (places, showsMore ? (tabs.count + 1, count) : nil)
    }
}
