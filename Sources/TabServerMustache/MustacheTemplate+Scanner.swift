// SPDX-License-Identifier: Apache-2.0
extension MustacheTemplate {
    /// A piece of source: a run of text or one tag, with its byte range.
    struct Token {
        enum Kind: Equatable {
            case text
            case variable
            case unescapedVariable
            case section
            case invertedSection
            case closing
            case partial
            case parent
            case block
            case comment
            case delimiters
        }

        var kind: Kind
        /// Bytes of the source this token covers, delimiters included.
        var range: Range<Int>
        /// The trimmed tag content without its sigil; empty for text, comments and delimiters.
        var name: String = ""
        /// Text only: the part kept once standalone lines are removed.
        var kept: Range<Int>
        /// The tag's line is removed from the output.
        var standalone = false
        /// Partial and parent: the indentation of a standalone tag.
        /// Parameter block: the indentation an argument gets, when the block stands alone.
        /// Argument block: the indentation its content loses.
        var indentation: [UInt8]?

        init(kind: Kind, range: Range<Int>, name: String = "") {
            self.kind = kind
            self.range = range
            self.name = name
            self.kept = range
        }
    }

    /// Splits source bytes into text and tags, following set-delimiter tags as it goes.
    struct Scanner {
        let bytes: [UInt8]
        let templateName: String

        func scan() throws(MustacheError) -> [Token] {
            var tokens: [Token] = []
            var opening = Array("{{".utf8)
            var closing = Array("}}".utf8)
            var position = 0

            while position < bytes.count {
                guard let tagStart = find(opening, from: position) else {
                    tokens.append(Token(kind: .text, range: position..<bytes.count))
                    break
                }
                if tagStart > position {
                    tokens.append(Token(kind: .text, range: position..<tagStart))
                }
                let contentStart = tagStart + opening.count
                let sigil = contentStart < bytes.count ? bytes[contentStart] : 0

                switch sigil {
                case UInt8(ascii: "{"):
                    // Triple mustache: the tag ends at "}" followed by the closing delimiter.
                    let end = try tagEnd([UInt8(ascii: "}")] + closing, after: contentStart + 1, tagStart: tagStart)
                    let name = try tagName(contentStart + 1..<end.content, tagStart: tagStart)
                    tokens.append(Token(kind: .unescapedVariable, range: tagStart..<end.tag, name: name))
                    position = end.tag

                case UInt8(ascii: "="):
                    // The tag ends at the first closing delimiter, which "=" must precede.
                    let end = try tagEnd(closing, after: contentStart + 1, tagStart: tagStart)
                    guard end.content > contentStart + 1, bytes[end.content - 1] == UInt8(ascii: "=") else {
                        throw error("invalid delimiters", at: tagStart)
                    }
                    (opening, closing) = try delimiters(contentStart + 1..<end.content - 1, tagStart: tagStart)
                    tokens.append(Token(kind: .delimiters, range: tagStart..<end.tag))
                    position = end.tag

                case UInt8(ascii: "!"):
                    let end = try tagEnd(closing, after: contentStart + 1, tagStart: tagStart)
                    tokens.append(Token(kind: .comment, range: tagStart..<end.tag))
                    position = end.tag

                default:
                    let kind: Token.Kind? =
                        switch sigil {
                        case UInt8(ascii: "#"): .section
                        case UInt8(ascii: "^"): .invertedSection
                        case UInt8(ascii: "/"): .closing
                        case UInt8(ascii: ">"): .partial
                        case UInt8(ascii: "<"): .parent
                        case UInt8(ascii: "$"): .block
                        case UInt8(ascii: "&"): .unescapedVariable
                        default: nil
                        }
                    let nameStart = kind == nil ? contentStart : contentStart + 1
                    // The closing delimiter is searched after the sigil: with delimiters
                    // like `% >`, a sigil `>` must not close its own tag (found by fuzzing).
                    let end = try tagEnd(closing, after: nameStart, tagStart: tagStart)
                    let name = try tagName(nameStart..<end.content, tagStart: tagStart)
                    tokens.append(Token(kind: kind ?? .variable, range: tagStart..<end.tag, name: name))
                    position = end.tag
                }
            }
            return tokens
        }

        /// Where a tag's content ends and where the whole tag ends.
        private func tagEnd(
            _ terminator: [UInt8], after start: Int, tagStart: Int
        ) throws(MustacheError) -> (content: Int, tag: Int) {
            guard let end = find(terminator, from: start) else {
                throw error("unclosed tag", at: tagStart)
            }
            return (end, end + terminator.count)
        }

        /// The tag content without padding; it must be one word (the spec forbids
        /// whitespace inside names, and a stray space usually means a typo).
        private func tagName(_ range: Range<Int>, tagStart: Int) throws(MustacheError) -> String {
            let trimmed = trimmed(range)
            guard !trimmed.isEmpty else {
                throw error("empty tag", at: tagStart)
            }
            let name = String(decoding: bytes[trimmed], as: UTF8.self)
            if bytes[trimmed].contains(where: isWhitespace) {
                throw error("invalid tag name '\(name)'", at: tagStart)
            }
            return name
        }

        /// Parses `{{=<% %>=}}`'s content into new delimiters.
        private func delimiters(
            _ range: Range<Int>, tagStart: Int
        ) throws(MustacheError) -> (opening: [UInt8], closing: [UInt8]) {
            let words = bytes[range].split(whereSeparator: isWhitespace)
            guard words.count == 2,
                !words.contains(where: { $0.contains(UInt8(ascii: "=")) })
            else {
                throw error("invalid delimiters", at: tagStart)
            }
            return (Array(words[0]), Array(words[1]))
        }

        private func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper, isWhitespace(bytes[lower]) { lower += 1 }
            while upper > lower, isWhitespace(bytes[upper - 1]) { upper -= 1 }
            return lower..<upper
        }

        private func find(_ needle: [UInt8], from start: Int) -> Int? {
            guard let first = needle.first, needle.count <= bytes.count else { return nil }
            var index = start
            let last = bytes.count - needle.count
            while index <= last {
                if bytes[index] == first {
                    var matched = 1
                    while matched < needle.count, bytes[index + matched] == needle[matched] { matched += 1 }
                    if matched == needle.count { return index }
                }
                index += 1
            }
            return nil
        }

        func error(_ reason: String, at offset: Int) -> MustacheError {
            let (line, column) = MustacheTemplate.location(of: offset, in: bytes)
            return MustacheError(file: templateName, line: line, column: column, reason: reason)
        }
    }

    /// 1-based line and column of a byte offset; columns count characters, as editors do.
    static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        var line = 1
        var lineStart = 0
        for index in 0..<min(offset, bytes.count) where bytes[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        let column = String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
        return (line, column)
    }
}

@inline(__always)
func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
        || byte == UInt8(ascii: "\r")
}

/// Spaces and tabs: what may precede or follow a standalone tag on its line.
@inline(__always)
func isBlank(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}
