// SPDX-License-Identifier: Apache-2.0
extension TabBarAppearance {
    /// How the bar at the bottom of the screen is drawn (`"barStyle"` in `tabs.json`).
    ///
    /// ```swift
    /// var look = TabBarAppearance()
    /// look.barStyle = .floating  // iOS 26: a glass capsule, the search tab apart
    /// ```
    public enum BarStyle: String, Sendable, Codable, CaseIterable, NamedChoice {
        /// The iOS 18 bar: full width, flush with the bottom edge, a hairline on top
        /// (the default).
        case classic
        /// The iOS 26 bar: a capsule of glass inset from the screen's edges, the selected
        /// item in a lens, the search tab a circle of its own at the trailing end, and a
        /// finger that scrubs across the items with the script.
        case floating

        static let choiceDescription = "bar style"

        /// Reads the style's name; any other value is refused with the names it may take.
        public init(from decoder: any Decoder) throws {
            try self.init(decodingNameFrom: decoder)
        }
    }
}
