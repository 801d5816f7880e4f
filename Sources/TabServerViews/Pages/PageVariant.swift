// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// What a rendered page depends on besides the visitor's own state and its path, made once
/// per request: the language it is in, the platform whose bar it draws, what the app adds
/// (`Application.pageVariant`), and the generation of what pages are made from. Every cache
/// of pages takes it whole in its key (a bar's values, whole renderings, finished answers
/// and their ETags), and every page names in `Vary` each request field it may come from
/// (`varyFields`): a field added here reaches all of them, and two requests that differ in
/// any field never share a page.
///
/// The language, platform and generation share one word, so the key of a cached page (made
/// and compared on every request for one) stays as small as it was with the language alone.
package struct PageVariant: Sendable, Hashable {
    /// The generation (from bit 16), the language (bits 1–15) and the platform (bit 0).
    private let word: UInt64
    /// The app's own part ("" when it adds none).
    package let app: String

    package init(language: Int, platform: TabBarAppearance.PlatformStyle, app: String = "", generation: Int) {
        precondition((0..<1 << 15).contains(language), "a language number out of range")
        word =
            UInt64(truncatingIfNeeded: generation) << 16 | UInt64(language) << 1 | (platform == .material ? 1 : 0)
        self.app = app
    }

    /// The page's language (its `Language.number`): the visitor's choice, else what
    /// `Accept-Language` negotiates (never the header itself: every header that negotiates
    /// one language gets the same page).
    package var language: Int { Int(word >> 1 & 0x7FFF) }
    /// Whose bar the page draws: `.ios` or `.material`, never `.automatic`.
    package var platform: TabBarAppearance.PlatformStyle { word & 1 == 1 ? .material : .ios }
    /// The generation of the tab model (and of templates and locales in development mode).
    package var generation: Int { Int(truncatingIfNeeded: word >> 16) }

    /// The fields but the generation in one word, for tables (equality compares the fields):
    /// a page of a newer model takes its older one's slot.
    package var digest: UInt64 {
        let page = (word & 0xFFFF) &* 0x9E37_79B9_7F4A_7C15
        guard !app.isEmpty else { return page }
        var hash = page
        for byte in app.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    /// The `Vary` of every page: the request fields a page may be made from. The session
    /// cookie and the encoding always; `Accept-Language` (a visitor who chose no language);
    /// the platform's fields when it is chosen per request; the app's own.
    package static func varyFields(platformStyle: TabBarAppearance.PlatformStyle, app: [String]) -> String {
        var fields = ["Accept-Encoding", "Accept-Language", "Cookie"]
        if platformStyle == .automatic { fields += ["Sec-CH-UA-Platform", "User-Agent"] }
        for field in app where !fields.contains(where: { $0.lowercased() == field.lowercased() }) {
            fields.append(field)
        }
        return fields.joined(separator: ", ")
    }
}
