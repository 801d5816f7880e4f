// SPDX-License-Identifier: Apache-2.0
extension TabBarAppearance {
    /// How the bar at the bottom of the screen is drawn (`"barStyle"` in `tabs.json`).
    ///
    /// ```swift
    /// var look = TabBarAppearance()
    /// look.barStyle = .floating  // iOS 26: a glass capsule, the search tab apart
    /// ```
    public enum BarStyle: String, Sendable, Codable, CaseIterable {
        /// The iOS 18 bar: full width, flush with the bottom edge, a hairline on top
        /// (the default).
        case classic
        /// The iOS 26 bar: a capsule of glass inset from the screen's edges, the selected
        /// item in a lens, the search tab a circle of its own at the trailing end, and a
        /// finger that scrubs across the items with the script.
        case floating

        /// Reads the style's name; any other value is refused with the names it may take.
        public init(from decoder: any Decoder) throws {
            let name = try decoder.singleValueContainer().decode(String.self)
            guard let style = Self(rawValue: name) else {
                let allowed = Self.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
                throw DecodingError.dataCorrupted(
                    DecodingError.Context(
                        codingPath: decoder.codingPath,
                        debugDescription: "unknown bar style \(ErrorText.quoted(name)) (use \(allowed))"))
            }
            self = style
        }
    }
}
