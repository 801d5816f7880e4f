// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerAppModel
import TabServerMustache
import TabServerTabBar

/// A file that does not load in development mode, as the browser shows it: the file, the
/// line and column, the reason, and the lines around it. Made from the error the load
/// threw, with the position found in the file where the error names none (a JSON file
/// that does not parse, a tab the model refuses).
package struct DevelopmentProblem: Sendable, Equatable, Encodable {
    /// One line of the file around the error.
    package struct Line: Sendable, Equatable, Encodable {
        package let number: Int
        package let text: String
        /// Whether the error is on this line.
        package let isError: Bool
        /// Where on it (0-based, in characters), when known.
        package let caret: Int?
    }

    package let file: String
    package let line: Int?
    package let column: Int?
    package let reason: String
    package let excerpt: [Line]
    /// The event's kind, for the page's script.
    let kind = "error"

    /// The problem `error` names, its position found where it names none.
    package init(_ error: StartupError) {
        var file = error.path ?? ""
        var line: Int? = nil
        var column: Int? = nil
        var reason = error.reason
        if let mustache = error.underlying as? MustacheError {
            (file, line, column, reason) = (mustache.file, mustache.line, mustache.column, mustache.reason)
        } else if error.path == nil, let named = Self.namedPosition(in: error.reason) {
            // "Templates/x.mustache:3: no template named 'y'"
            (file, line, reason) = (named.file, named.line, named.reason)
        } else if let found = Self.position(in: error.reason) {
            (line, column) = found
        } else if let bytes = FileManager.default.contents(atPath: file).map(Array.init) {
            if file.hasSuffix(".json"), let offset = JSONSyntax.firstErrorOffset(in: bytes) {
                (line, column) = Self.lineAndColumn(of: offset, in: bytes)
            } else if let tabID = (error.underlying as? TabModelError)?.tabID {
                line = Self.line(naming: tabID, in: bytes)
            }
        }
        self.file = file
        self.line = line
        self.column = column
        self.reason = reason
        excerpt = Self.excerpt(of: file, around: line, column: column)
    }

    /// The event the open pages get.
    package var eventData: String {
        (try? JSONEncoder().encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? #"{"kind":"error"}"#
    }

    /// "near line 3, column 12" in a message.
    private static func position(in text: String) -> (Int, Int)? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "," })
        guard let at = words.firstIndex(of: "line"), at + 3 < words.count, words[at + 2] == "column",
            let line = Int(words[at + 1]), let column = Int(words[at + 3].prefix { $0.isNumber })
        else { return nil }
        return (line, column)
    }

    /// "path:line: reason", as the template library names a missing template.
    private static func namedPosition(in text: String) -> (file: String, line: Int, reason: String)? {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let line = Int(parts[1]) else { return nil }
        return (String(parts[0]), line, String(parts[2].drop { $0 == " " }))
    }

    private static func lineAndColumn(of offset: Int, in bytes: [UInt8]) -> (Int, Int) {
        let before = bytes[..<min(offset, bytes.count)]
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = before.count - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return (line, column)
    }

    /// The first line that holds `"tabID"`.
    private static func line(naming tabID: String, in bytes: [UInt8]) -> Int? {
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.contains("\"\(tabID)\"") }.map { $0 + 1 }
    }

    /// Up to three lines either side of `line`, the error's marked (none without a line).
    private static func excerpt(of file: String, around line: Int?, column: Int?) -> [Line] {
        guard let line, let data = FileManager.default.contents(atPath: file) else { return [] }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let range = max(1, line - 3)...min(lines.count, line + 3)
        guard !range.isEmpty else { return [] }
        return range.map { number in
            Line(
                number: number, text: String(lines[number - 1].prefix(240)), isError: number == line,
                caret: number == line ? column.map { max(0, $0 - 1) } : nil)
        }
    }
}
