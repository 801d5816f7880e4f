// SPDX-License-Identifier: Apache-2.0
extension Badge {
    /// Longest accepted badge text, in characters: a badge is a small pill in a bar item.
    public static let maxTextLength = 16

    /// Why this badge may not be shown, or `nil` when it is fine.
    ///
    /// Used by the model at start-up (where the problem becomes an error message) and by
    /// the controller for per-visitor overrides (where an invalid badge is ignored).
    public var validationProblem: String? {
        switch value {
        case .text(let text):
            if !text.unicodeScalars.contains(where: { !$0.properties.isWhitespace }) {
                return "badge text is empty"
            }
            if text.count > Self.maxTextLength {
                return "badge text is longer than \(Self.maxTextLength) characters"
            }
        case .count(let count):
            if count < 0 { return "badge count \(count) is negative" }
        case .dot:
            break
        }
        if let color, !CSSColor.isValid(color) {
            return "invalid badge colour \(ErrorText.quoted(color))"
        }
        return nil
    }

    /// Whether the badge passes `validationProblem`.
    public var isValid: Bool { validationProblem == nil }
}
