// SPDX-License-Identifier: Apache-2.0
import TabServerTabBar

/// What a rendered page depends on besides the visitor's own state and its path, made once
/// per request: the language it is in, the platform whose bar it draws, what the app adds
/// (`Application.pageVariant`), and the generation of what pages are made from. Every cache
/// of pages takes it whole in its key (a bar's values, whole renderings, finished answers
/// and their ETags), and every page names in `Vary` each request field it may come from
/// (`varyFields`): a field added here reaches all of them, and two requests that differ in
/// any field never share a page.
package struct PageVariant: Sendable, Hashable {
    /// The code of the page's language: the visitor's choice, else what `Accept-Language`
    /// negotiates (never the header itself: every header that negotiates one language gets
    /// the same page).
    package let language: String
    /// Whose bar the page draws: `.ios` or `.material`, never `.automatic`.
    package let platform: TabBarAppearance.PlatformStyle
    /// The app's own part ("" when it adds none).
    package let app: String
    /// The generation of the tab model (and of templates and locales in development mode).
    package let generation: Int
    /// The fields but the generation mixed into one word, for tables (equality compares the
    /// fields): a page of a newer model takes its older one's slot.
    package let digest: UInt64

    package init(language: String, platform: TabBarAppearance.PlatformStyle, app: String = "", generation: Int) {
        self.language = language
        self.platform = platform
        self.app = app
        self.generation = generation
        var digest = Self.fnv(language, Self.fnv(app, 0xcbf2_9ce4_8422_2325))
        digest = (digest ^ (platform == .material ? 1 : 0)) &* 0x100_0000_01b3
        self.digest = digest
    }

    /// FNV-1a of `text`'s bytes after `seed`, then a separator, so ("ab", "c") and ("a", "bc")
    /// differ.
    private static func fnv(_ text: String, _ seed: UInt64) -> UInt64 {
        var text = text
        return text.withUTF8 { bytes in
            var hash = seed
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return (hash ^ 0xff) &* 0x100_0000_01b3
        }
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
