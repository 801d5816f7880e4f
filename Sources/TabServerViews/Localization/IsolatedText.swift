// SPDX-License-Identifier: Apache-2.0
/// Text with embedded runs of another direction marked by the Unicode isolates
/// FIRST STRONG ISOLATE (U+2068) and POP DIRECTIONAL ISOLATE (U+2069), as
/// `Language.isolatedText` and `Language.translate` produce them. Views turn each run
/// into `<bdi>`, so an English tab name or message inside an Arabic sentence keeps its
/// punctuation where it belongs ("Open it?", not "?Open it").
///
/// ```swift
/// IsolatedText.parts(of: "In \u{2068}Music\u{2069}.")
/// // [("In ", false), ("Music", true), (".", false)]
/// ```
package enum IsolatedText {
    /// Starts an isolated run.
    package static let start: Character = "\u{2068}"
    /// Ends an isolated run.
    package static let end: Character = "\u{2069}"

    /// `text` as one isolated run.
    package static func isolate(_ text: String) -> String { "\(start)\(text)\(end)" }

    /// The runs of `text` in order; empty runs are left out and a missing end marker
    /// ends the run at the end of the text.
    package static func parts(of text: String) -> [(text: String, isolated: Bool)] {
        var parts: [(text: String, isolated: Bool)] = []
        var current = ""
        var isolated = false
        for character in text {
            if character == start || character == end {
                if !current.isEmpty { parts.append((current, isolated)) }
                current = ""
                isolated = character == start
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { parts.append((current, isolated)) }
        return parts
    }
}
