// SPDX-License-Identifier: Apache-2.0
import TabServerMustache

/// One language of the UI: its strings (complete: gaps are filled from English), tab
/// titles, and writing direction.
public struct Language: Sendable, Hashable {
    /// BCP 47 primary tag, the file's name: "en", "de", "ja", "ar".
    public let code: String
    /// Its place among the app's languages (in the order of their codes): what tells one
    /// from another in a cache's key, without a string.
    package let number: Int
    /// The language's own name, for the picker ("Deutsch").
    public let name: String
    /// Right-to-left languages mirror the layout and the bar.
    public let isRightToLeft: Bool
    /// Every UI string by key.
    public let strings: [String: String]
    /// Tab titles by tab id (a tab without one keeps the model's title).
    public let tabTitles: [String: String]
    /// Translations of English texts that come from outside the locale files (badge
    /// texts of the model, hook messages, error messages), keyed by the English text,
    /// as in a gettext catalogue.
    public let messages: [String: String]
    /// `strings` as the template value `t` (built once).
    package let templateValue: MustacheValue

    init(
        code: String, number: Int, name: String, isRightToLeft: Bool, strings: [String: String],
        tabTitles: [String: String], messages: [String: String] = [:]
    ) {
        self.code = code
        self.number = number
        self.name = name
        self.isRightToLeft = isRightToLeft
        self.strings = strings
        self.tabTitles = tabTitles
        self.messages = messages
        templateValue = .object(strings.mapValues { .string($0) })
    }

    /// `dir` of the page.
    public var direction: String { isRightToLeft ? "rtl" : "ltr" }

    /// The string for `key` with `{name}` placeholders filled in.
    public func text(_ key: String, _ values: [String: String] = [:]) -> String {
        var text = strings[key] ?? key
        for (name, value) in values { text = text.replacingPlaceholder(name, with: value) }
        return text
    }

    /// `english` in this language when the locale file translates it; else unchanged,
    /// and on a page in another language marked as an isolated run (`IsolatedText`).
    public func translate(_ english: String) -> String {
        if let translated = messages[english] { return translated }
        return code == Localizer.fallbackCode || english.isEmpty ? english : IsolatedText.isolate(english)
    }

    /// `text(key, values)` with every value marked as an isolated run (`IsolatedText`):
    /// for names inside a sentence, which views render in `<bdi>`.
    public func isolatedText(_ key: String, _ values: [String: String]) -> String {
        text(key, values.mapValues(IsolatedText.isolate))
    }

    /// The reason phrase of an HTTP status ("Not Found") in this language: the string
    /// `status<code>` of the locale file, else `english`.
    public func statusReason(_ code: Int, english: String) -> String {
        strings["status\(code)"] ?? english
    }

    public static func == (lhs: Language, rhs: Language) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}

extension String {
    fileprivate func replacingPlaceholder(_ name: String, with value: String) -> String {
        let marker = "{\(name)}"
        var result = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: marker) {
            result += rest[..<range.lowerBound]
            result += value
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
