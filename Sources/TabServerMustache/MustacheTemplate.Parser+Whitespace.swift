// SPDX-License-Identifier: Apache-2.0

/// The standalone-line and indentation rules (see `MustacheTemplate.Parser`).
extension MustacheTemplate.Parser {
    mutating func decideWhitespace() {
        for index in tokens.indices {
            switch tokens[index].kind {
            case .text, .variable, .unescapedVariable:
                continue
            case .parent:
                let closer = partner[index]
                if let before = leftClearance(of: index), let after = rightClearance(of: closer) {
                    drop(before, beforeTag: index)
                    drop(after, afterTag: closer)
                    tokens[index].standalone = true
                    tokens[closer].standalone = true
                    tokens[index].indentation = Array(bytes[before])
                }
            case .block where isArgument(index):
                if let after = rightClearance(of: index) {
                    drop(after, afterTag: index)
                    tokens[index].standalone = true
                    tokens[index].indentation = leadingBlanks(ofLineAfter: after)
                }
                // A closing tag on a line of its own: the blanks before it are layout
                // of the calling template, not content (the line end before them is).
                let closer = partner[index]
                if closer - 1 > index, tokens[closer - 1].kind == .text,
                    let tail = blankTail(of: closer - 1), tail.lowerBound > tokens[closer - 1].range.lowerBound
                {
                    drop(tail, beforeTag: closer)
                }
            case .block:
                // A parameter block: each tag may take its own line, and the pair, when
                // it spans whole lines, decides how an overriding argument is indented.
                let closer = partner[index]
                let before = leftClearance(of: index)
                let after = rightClearance(of: index)
                if before != nil, rightClearance(of: closer) != nil {
                    if let after {
                        tokens[index].indentation = leadingBlanks(ofLineAfter: after)
                    } else if let before {
                        tokens[index].indentation = Array(bytes[before])
                    }
                }
                removeLineIfStandalone(index)
            case .closing:
                let opener = partner[index]
                if tokens[opener].kind == .parent || (tokens[opener].kind == .block && isArgument(opener)) {
                    continue
                }
                removeLineIfStandalone(index)
            case .section, .invertedSection, .comment, .delimiters:
                removeLineIfStandalone(index)
            case .partial:
                if let before = leftClearance(of: index), removeLineIfStandalone(index) {
                    tokens[index].indentation = Array(bytes[before])
                }
            }
        }
    }

    /// The classic rule: a tag alone on its line takes the whole line with it.
    @discardableResult
    mutating func removeLineIfStandalone(_ index: Int) -> Bool {
        guard let before = leftClearance(of: index), let after = rightClearance(of: index) else {
            return false
        }
        drop(before, beforeTag: index)
        drop(after, afterTag: index)
        tokens[index].standalone = true
        return true
    }

    func isArgument(_ index: Int) -> Bool {
        let outer = enclosing[index]
        return outer >= 0 && tokens[outer].kind == .parent
    }

    /// The blanks between the start of the tag's line and the tag, if nothing else is there.
    func leftClearance(of index: Int) -> Range<Int>? {
        let tagStart = tokens[index].range.lowerBound
        guard index > 0 else { return tagStart..<tagStart }
        guard tokens[index - 1].kind == .text, let tail = blankTail(of: index - 1) else { return nil }
        let atTemplateStart = index - 1 == 0 && tail.lowerBound == tokens[index - 1].range.lowerBound
        let afterLineBreak =
            tail.lowerBound > tokens[index - 1].range.lowerBound && bytes[tail.lowerBound - 1] == UInt8(ascii: "\n")
        return atTemplateStart || afterLineBreak ? tail : nil
    }

    /// The blanks and line end after the tag, if nothing else is on its line.
    func rightClearance(of index: Int) -> Range<Int>? {
        let tagEnd = tokens[index].range.upperBound
        guard index + 1 < tokens.count else { return tagEnd..<tagEnd }
        let next = tokens[index + 1]
        guard next.kind == .text else { return nil }
        var position = next.range.lowerBound
        while position < next.range.upperBound, isBlank(bytes[position]) { position += 1 }
        if position == next.range.upperBound {
            return index + 1 == tokens.count - 1 ? next.range : nil
        }
        if bytes[position] == UInt8(ascii: "\n") {
            return next.range.lowerBound..<position + 1
        }
        if bytes[position] == UInt8(ascii: "\r"), position + 1 < next.range.upperBound,
            bytes[position + 1] == UInt8(ascii: "\n")
        {
            return next.range.lowerBound..<position + 2
        }
        return nil
    }

    /// The trailing blanks of a text token.
    func blankTail(of index: Int) -> Range<Int>? {
        let range = tokens[index].range
        var start = range.upperBound
        while start > range.lowerBound, isBlank(bytes[start - 1]) { start -= 1 }
        let onlyBlanksToLineStart = start == range.lowerBound || bytes[start - 1] == UInt8(ascii: "\n")
        return onlyBlanksToLineStart ? start..<range.upperBound : nil
    }

    /// The indentation of the line after a line end a tag owns.
    func leadingBlanks(ofLineAfter lineEnd: Range<Int>) -> [UInt8] {
        var end = lineEnd.upperBound
        while end < bytes.count, isBlank(bytes[end]) { end += 1 }
        return Array(bytes[lineEnd.upperBound..<end])
    }

    mutating func drop(_ range: Range<Int>, beforeTag index: Int) {
        guard index > 0, tokens[index - 1].kind == .text else { return }
        let kept = tokens[index - 1].kept
        let upper = max(kept.lowerBound, min(kept.upperBound, range.lowerBound))
        tokens[index - 1].kept = kept.lowerBound..<upper
    }

    mutating func drop(_ range: Range<Int>, afterTag index: Int) {
        guard index + 1 < tokens.count, tokens[index + 1].kind == .text else { return }
        let kept = tokens[index + 1].kept
        let lower = min(kept.upperBound, max(kept.lowerBound, range.upperBound))
        tokens[index + 1].kept = lower..<kept.upperBound
    }
}
