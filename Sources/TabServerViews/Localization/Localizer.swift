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
    /// Every language by its code's length and bytes packed into a word (`Self.word(of:)`),
    /// for matching `Accept-Language` tags without comparing strings.
    private let coded: [(length: Int, word: UInt64, language: Language)]

    /// Loads every `*.json` in `directory`. Strings missing from a language are taken
    /// from English and logged once, here.
    public init(directory: String, log: LogSink) throws(LocalesError) {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: directory) else {
            throw LocalesError(path: directory, "cannot read the locales folder")
        }
        var files: [String: LocaleFile] = [:]
        for name in names.sorted() where name.hasSuffix(".json") {
            let code = String(name.dropLast(5))
            guard code.utf8.count >= 2, code.utf8.count <= 8,
                code.utf8.allSatisfy({ (0x61...0x7A).contains($0) || $0 == UInt8(ascii: "-") })
            else {
                throw LocalesError(
                    path: "\(directory)/\(name)", "a locale file is named by its language code, like de.json")
            }
            guard let data = manager.contents(atPath: directory + "/" + name) else {
                throw LocalesError(path: "\(directory)/\(name)", "cannot read")
            }
            do {
                files[code] = try JSONDecoder().decode(LocaleFile.self, from: data)
            } catch {
                throw LocalesError(
                    path: "\(directory)/\(name)", "not a locale file: \(error)", underlying: error)
            }
        }
        guard let english = files[Self.fallbackCode] else {
            throw LocalesError(
                "\(directory)/\(Self.fallbackCode).json is missing: it is the fallback for every string")
        }
        var languages: [String: Language] = [:]
        let sortedCodes = files.keys.sorted()
        for (number, code) in sortedCodes.enumerated() {
            let file = files[code]!
            var strings = english.strings
            for key in english.strings.keys.sorted() where file.strings[key] == nil {
                log.write("locale \(code) has no string '\(key)'; using English", level: .warn)
            }
            for (key, value) in file.strings { strings[key] = value }
            // Tab titles are not taken from English: the model's titles are the source
            // language, and a language without a translation shows those.
            let titles = file.tabs ?? [:]
            guard file.direction == "ltr" || file.direction == "rtl" else {
                throw LocalesError(path: "\(directory)/\(code).json", "direction must be ltr or rtl")
            }
            languages[code] = Language(
                code: code, number: number, name: file.name, isRightToLeft: file.direction == "rtl",
                strings: strings, tabTitles: titles, messages: file.messages ?? [:])
        }
        self.languages = languages
        fallback = languages[Self.fallbackCode]!
        codes = sortedCodes
        let coded = codes.compactMap { code in
            var code = code
            return code.withUTF8 { Self.word(of: $0) }.map {
                (length: code.utf8.count, word: $0, language: languages[code]!)
            }
        }
        self.coded = coded
        fallbackIndex = coded.firstIndex { $0.language.code == Self.fallbackCode }!
    }

    private struct LocaleFile: Decodable {
        let name: String
        let direction: String
        let strings: [String: String]
        let tabs: [String: String]?
        let messages: [String: String]?
    }

    /// English.
    public let fallback: Language
    /// Where English is in `coded`.
    private let fallbackIndex: Int

    /// Language ranges of `Accept-Language` looked at: browsers send a handful; the rest
    /// of a longer list is ignored, so a hostile header costs what a short one does.
    static let languageRangeLimit = 16
    /// Longer ranges are skipped unread (a BCP 47 tag in use is far shorter).
    static let longestTag = 64

    /// The language for a request: `chosen` if it is one of ours, else the first match of
    /// the first 16 ranges of `Accept-Language` by weight (an exact tag, then its primary
    /// subtag), else English.
    public func negotiate(acceptLanguage: String?, chosen: String?) -> Language {
        coded[negotiatedIndex(acceptLanguage: acceptLanguage, chosen: chosen)].language
    }

    /// The code of the language `negotiate(acceptLanguage:chosen:)` picks, without a copy
    /// of the language.
    public func negotiatedCode(acceptLanguage: String?, chosen: String?) -> String {
        coded[negotiatedIndex(acceptLanguage: acceptLanguage, chosen: chosen)].language.code
    }

    /// The number (`Language.number`) of the language `negotiate(acceptLanguage:chosen:)`
    /// picks, without a copy of the language: for the key of a cached page, made on every
    /// request.
    package func negotiatedNumber(acceptLanguage: String?, chosen: String?) -> Int {
        coded[negotiatedIndex(acceptLanguage: acceptLanguage, chosen: chosen)].language.number
    }

    /// Where in `coded` the language `negotiate` picks is.
    private func negotiatedIndex(acceptLanguage: String?, chosen: String?) -> Int {
        if let chosen, let index = coded.firstIndex(where: { $0.language.code == chosen }) { return index }
        guard let header = acceptLanguage else { return fallbackIndex }
        // One pass over the ranges, no list built or sorted: this runs on every request
        // that sends the header, cached pages included (their key holds its outcome).
        let found = QualityValue.mostPreferred(in: header, limit: Self.languageRangeLimit) { tag -> Int? in
            var tag = tag
            return tag.withUTF8 { index(ofTag: $0) }
        }
        return found ?? fallbackIndex
    }

    /// Where the language a range's `tag` names is in `coded`: English for `*`, else the
    /// language whose code is the tag, else the one whose code is its primary subtag (the
    /// part before the first `-`), in any case; nil for none or a tag over 64 bytes.
    private func index(ofTag tag: UnsafeBufferPointer<UInt8>) -> Int? {
        guard tag.count <= Self.longestTag else { return nil }
        if tag.count == 1 && tag[0] == UInt8(ascii: "*") { return fallbackIndex }
        if let exact = index(coded: tag) { return exact }
        guard let dash = tag.firstIndex(of: UInt8(ascii: "-")) else { return nil }
        return index(coded: UnsafeBufferPointer(rebasing: tag[..<dash]))
    }

    /// Where the language whose code is `tag` in any case is in `coded`; compared as one
    /// word, since every request with `Accept-Language` asks, cached pages included.
    private func index(coded tag: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let word = Self.word(of: tag) else { return nil }
        return coded.firstIndex { $0.word == word && $0.length == tag.count }
    }

    /// The 2 to 8 bytes of `tag`, ASCII capitals lowercased, in one word; nil for any
    /// other length (codes are 2 to 8 bytes).
    private static func word(of tag: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard (2...8).contains(tag.count) else { return nil }
        var word: UInt64 = 0
        for byte in tag {
            word = word << 8 | UInt64((0x41...0x5A).contains(byte) ? byte | 0x20 : byte)
        }
        return word
    }

    /// A tab's title in `language`.
    public func title(of tab: Tab, in language: Language) -> String {
        language.tabTitles[tab.id] ?? tab.title
    }
}
