// SPDX-License-Identifier: Apache-2.0
extension TabBarAppearance {
    /// Which platform's bar a page draws (`"platformStyle"` in `tabs.json`): iOS's on
    /// iPhones and desktops, Material 3's on Android, chosen per request from the
    /// platform the browser names (`.automatic`, the default), or one for everyone.
    ///
    /// ```swift
    /// var look = TabBarAppearance()
    /// look.platformStyle = .material  // Material 3's navigation bar on every platform
    /// ```
    public enum PlatformStyle: String, Sendable, Codable, CaseIterable, Hashable, NamedChoice {
        /// Each request gets its platform's: Material's on Android, iOS's elsewhere.
        case automatic
        /// iOS's bar (classic or floating, see `BarStyle`) everywhere.
        case ios
        /// Material 3's navigation bar (and rail on wide screens) everywhere.
        case material

        static let choiceDescription = "platform style"

        /// Reads the style's name; any other value is refused with the names it may take.
        public init(from decoder: any Decoder) throws {
            try self.init(decodingNameFrom: decoder)
        }
    }
}
