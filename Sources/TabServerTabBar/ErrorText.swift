// SPDX-License-Identifier: Apache-2.0
/// Formatting shared by the error descriptions: they end up on a 400 page or in a
/// start-up error, so whatever the input was, the quoted part stays short and printable.
enum ErrorText {
    /// Longest quoted input, in characters, before it is cut with "…".
    static let maxQuotedLength = 40

    /// `value` in single quotes, control characters replaced by "?", cut to 40 characters.
    static func quoted(_ value: String) -> String {
        var shown = ""
        for (offset, character) in value.enumerated() {
            if offset == maxQuotedLength {
                shown += "…"
                break
            }
            let isControl = character.unicodeScalars.contains {
                $0.properties.generalCategory == .control || $0.properties.generalCategory == .format
            }
            shown.append(isControl ? "?" : character)
        }
        return "'\(shown)'"
    }
}
