// SPDX-License-Identifier: Apache-2.0
/// A template that cannot be compiled, or a template file that cannot be loaded.
///
/// Start-up stops on it, so it says exactly where to look:
/// `Templates/layout.mustache:12:5: unclosed section 'tabs' opened here`.
public struct MustacheError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The template name, or the file path when loaded from a directory.
    public let file: String
    /// 1-based line of the offending tag.
    public let line: Int
    /// 1-based column (in characters) of the offending tag.
    public let column: Int
    /// What is wrong, e.g. "unclosed section 'items' opened here",
    /// "mismatched closing tag 'b', expected 'a'", "unclosed tag", "invalid delimiters".
    public let reason: String

    /// Creates an error at a position in `file`.
    public init(file: String, line: Int, column: Int, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
    }

    /// `file:line:column: reason`, the form editors and terminals turn into links.
    public var description: String { "\(file):\(line):\(column): \(reason)" }
}
