// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerHTTP
import TabServerTabBar

/// The UI's languages, one JSON file each in `Locales/` (adding a language is adding a
/// file), and the choice of one per request: the visitor's explicit choice, else the
/// best match of `Accept-Language`, else English.
///
/// ```swift
/// let localizer = try Localizer(directory: "Locales", log: .standardError)
/// let language = localizer.negotiate(acceptLanguage: "de-AT,de;q=0.9,en;q=0.5", chosen: nil)
/// language.text("more")   // "Mehr"
/// ```
public struct Localizer: Sendable {
    /// The language every other one falls back to; its file must exist.
    public static let fallbackCode = "en"

    /// Every language by code.
    public let languages: [String: Language]
    /// Codes in a stable order for the language picker.
    public let codes: [String]

    /// Loads every `*.json` in `directory`. Strings missing from a language are taken
    /// from English and logged once, here.
    public init(directory: String, log: LogSink) throws(StartupError) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
            throw StartupError("\(directory): cannot read the locales folder")
        }
        var files: [String: LocaleFile] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let code = String(name.dropLast(5))
            guard code.utf8.count >= 2, code.utf8.count <= 8,
                code.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") })
            else {
                throw StartupError("\(directory)/\(name): a locale file is named by its language code, like de.json")
            }
            guard let data = manager.contents(atPath: directory + "/" + name) else {
                throw StartupError("\(directory)/\(name): cannot read")
            }
            do {
                files[code] = try JSONDecoder().decode(LocaleFile.self, from: data)
            } catch {
                throw StartupError("\(directory)/\(name): not a locale file: \(error)")
            }
        }
        guard let english = files[Self.fallbackCode] else {
            throw StartupError("\(directory)/\(Self.fallbackCode).json is missing: it is the fallback for every string")
        }
        var languages: [String: Language] = [:]
        for (code, file) in files {
            var strings = english.strings
            for key in english.strings.keys.sorted() where file.strings[key] == nil {
                log.write("locale \(code) has no string '\(key)'; using English", level: .warn)
            }
            for (key, value) in file.strings { strings[key] = value }
            // Tab titles are not taken from English: the model's titles are the source
            // language, and a language without a translation shows those.
            let titles = file.tabs ?? [:]
            guard file.direction == "ltr" || file.direction == "rtl" else {
                throw StartupError("\(directory)/\(code).json: direction must be ltr or rtl")
            }
            languages[code] = Language(
                code: code, name: file.name, isRightToLeft: file.direction == "rtl", strings: strings,
                tabTitles: titles,
                messages: file.messages ?? [:])
        }
        self.languages = languages
        codes = languages.keys.sorted()
    }

    private struct LocaleFile: Decodable {
        let name: String
        let direction: String
        let strings: [String: String]
        let tabs: [String: String]?
        let messages: [String: String]?
    }

    /// English.
    public var fallback: Language { languages[Self.fallbackCode]! }

    /// Language ranges of `Accept-Language` looked at: browsers send a handful; the rest
    /// of a longer list is ignored, so a hostile header costs what a short one does.
    static let languageRangeLimit = 16
    /// Longer ranges are skipped unread (a BCP 47 tag in use is far shorter).
    static let longestTag = 64

    /// The language for a request: `chosen` if it is one of ours, else the first match of
    /// the first 16 ranges of `Accept-Language` by weight (an exact tag, then its primary
    /// subtag), else English.
    public func negotiate(acceptLanguage: String?, chosen: String?) -> Language {
        if let chosen, let language = languages[chosen] { return language }
        guard let header = acceptLanguage else { return fallback }
        for range in QualityValue.preferred([header], limit: Self.languageRangeLimit)
        where range.value.utf8.count <= Self.longestTag {
            let tag = range.value
            if tag == "*" { return fallback }
            if let exact = language(coded: tag) { return exact }
            if let dash = tag.utf8.firstIndex(of: UInt8(ascii: "-")), let language = language(coded: tag[..<dash]) {
                return language
            }
        }
        return fallback
    }

    /// The language whose code is `tag` in any case; compared in place, since every
    /// request with `Accept-Language` asks (codes are lowercase, at most 8 bytes).
    private func language(coded tag: Substring) -> Language? {
        guard (2...8).contains(tag.utf8.count) else { return nil }
        for (code, language) in languages
        where code.utf8.elementsEqual(tag.utf8, by: { $0 == ((0x41...0x5A).contains($1) ? $1 | 0x20 : $1) }) {
            return language
        }
        return nil
    }

    /// A tab's title in `language`.
    public func title(of tab: Tab, in language: Language) -> String {
        language.tabTitles[tab.id] ?? tab.title
    }
}
