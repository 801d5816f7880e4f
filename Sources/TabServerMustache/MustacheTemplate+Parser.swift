// SPDX-License-Identifier: Apache-2.0
extension MustacheTemplate {
    /// Turns source into a program in three passes over the scanner's tokens:
    /// match sections, decide standalone lines and indentation, then emit the program.
    ///
    /// Whitespace rules, as the spec's tests define them:
    /// - A section, inverted section, closing, comment, set-delimiter, partial or
    ///   parameter block tag alone on its line (but for spaces and tabs) removes that line.
    /// - A parent pair whose opening tag starts its line and whose closing tag ends its
    ///   line removes the whitespace before the one and the line end after the other,
    ///   even when both sit on one line: `  {{<layout}}{{/layout}}`.
    /// - An argument block (`{{$name}}` directly inside a parent) that ends its line owns
    ///   that line end, and every line of its content loses the indentation of the first.
    /// - A parameter block pair that starts and ends its line(s) gives an overriding
    ///   argument the indentation of its own content (when the opening tag ends its line)
    ///   or of its opening tag.
    struct Parser {
        let bytes: [UInt8]
        let templateName: String
        private var tokens: [Token] = []
        /// For an opening tag, the index of its closing tag, and the reverse.
        private var partner: [Int] = []
        /// The innermost open section, parent or block around each token, or -1.
        private var enclosing: [Int] = []
        private var references: [Reference] = []
        /// While emitting: whether the next kept byte starts a line.
        private var atLineStart = true
        /// The program under construction.
        private var ops: [Op] = []
        private var text: [UInt8] = []
        private var names: [Name] = []
        private var identifiers: [String] = []
        private var indentations: [[UInt8]] = []
        private var argumentTables: [[String: Range<Int>]] = []
        /// The last operation, when it is text that following text may extend.
        private var mergeableText: Int?

        init(source: [UInt8], templateName: String) {
            self.bytes = source
            self.templateName = templateName
        }

        mutating func parse() throws(MustacheError) -> (Program, [Reference]) {
            tokens = try Scanner(bytes: bytes, templateName: templateName).scan()
            try matchSections()
            try checkNames()
            decideWhitespace()
            text.reserveCapacity(bytes.count)
            var index = 0
            emit(&index, until: tokens.count, removing: [])
            let program = Program(
                ops: ops, text: text, names: names, identifiers: identifiers, indentations: indentations,
                arguments: argumentTables)
            return (program, references)
        }

        // MARK: Structure

        private mutating func matchSections() throws(MustacheError) {
            partner = Array(repeating: -1, count: tokens.count)
            enclosing = Array(repeating: -1, count: tokens.count)
            var open: [Int] = []
            for index in tokens.indices {
                enclosing[index] = open.last ?? -1
                switch tokens[index].kind {
                case .section, .invertedSection, .parent, .block:
                    open.append(index)
                case .closing:
                    guard let opener = open.popLast() else {
                        throw error("unexpected closing tag '\(tokens[index].name)'", at: index)
                    }
                    guard tokens[opener].name == tokens[index].name else {
                        throw error(
                            "mismatched closing tag '\(tokens[index].name)', expected '\(tokens[opener].name)'",
                            at: index)
                    }
                    enclosing[index] = open.last ?? -1
                    partner[opener] = index
                    partner[index] = opener
                default:
                    break
                }
            }
            if let unclosed = open.first {
                let what =
                    switch tokens[unclosed].kind {
                    case .parent: "parent"
                    case .block: "block"
                    default: "section"
                    }
                throw error("unclosed \(what) '\(tokens[unclosed].name)' opened here", at: unclosed)
            }
        }

        /// Rejects `a..b`, `.a` and `a.`: names the renderer could never resolve.
        private func checkNames() throws(MustacheError) {
            for index in tokens.indices {
                switch tokens[index].kind {
                case .variable, .unescapedVariable, .section, .invertedSection:
                    let name = tokens[index].name
                    if name != ".",
                        name.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                            .contains(where: \.isEmpty)
                    {
                        throw error("invalid tag name '\(name)'", at: index)
                    }
                default:
                    break
                }
            }
        }

        // MARK: Whitespace

        private mutating func decideWhitespace() {
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
        private mutating func removeLineIfStandalone(_ index: Int) -> Bool {
            guard let before = leftClearance(of: index), let after = rightClearance(of: index) else {
                return false
            }
            drop(before, beforeTag: index)
            drop(after, afterTag: index)
            tokens[index].standalone = true
            return true
        }

        private func isArgument(_ index: Int) -> Bool {
            let outer = enclosing[index]
            return outer >= 0 && tokens[outer].kind == .parent
        }

        /// The blanks between the start of the tag's line and the tag, if nothing else is there.
        private func leftClearance(of index: Int) -> Range<Int>? {
            let tagStart = tokens[index].range.lowerBound
            guard index > 0 else { return tagStart..<tagStart }
            guard tokens[index - 1].kind == .text, let tail = blankTail(of: index - 1) else { return nil }
            let atTemplateStart = index - 1 == 0 && tail.lowerBound == tokens[index - 1].range.lowerBound
            let afterLineBreak =
                tail.lowerBound > tokens[index - 1].range.lowerBound && bytes[tail.lowerBound - 1] == UInt8(ascii: "\n")
            return atTemplateStart || afterLineBreak ? tail : nil
        }

        /// The blanks and line end after the tag, if nothing else is on its line.
        private func rightClearance(of index: Int) -> Range<Int>? {
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
        private func blankTail(of index: Int) -> Range<Int>? {
            let range = tokens[index].range
            var start = range.upperBound
            while start > range.lowerBound, isBlank(bytes[start - 1]) { start -= 1 }
            let onlyBlanksToLineStart = start == range.lowerBound || bytes[start - 1] == UInt8(ascii: "\n")
            return onlyBlanksToLineStart ? start..<range.upperBound : nil
        }

        /// The indentation of the line after a line end a tag owns.
        private func leadingBlanks(ofLineAfter lineEnd: Range<Int>) -> [UInt8] {
            var end = lineEnd.upperBound
            while end < bytes.count, isBlank(bytes[end]) { end += 1 }
            return Array(bytes[lineEnd.upperBound..<end])
        }

        private mutating func drop(_ range: Range<Int>, beforeTag index: Int) {
            guard index > 0, tokens[index - 1].kind == .text else { return }
            let kept = tokens[index - 1].kept
            let upper = max(kept.lowerBound, min(kept.upperBound, range.lowerBound))
            tokens[index - 1].kept = kept.lowerBound..<upper
        }

        private mutating func drop(_ range: Range<Int>, afterTag index: Int) {
            guard index + 1 < tokens.count, tokens[index + 1].kind == .text else { return }
            let kept = tokens[index + 1].kept
            let lower = min(kept.upperBound, max(kept.lowerBound, range.upperBound))
            tokens[index + 1].kept = lower..<kept.upperBound
        }

        // MARK: Program

        /// Emits the operations of tokens `index..<end`.
        /// - Parameter removing: indentation that argument content loses at each line start.
        private mutating func emit(_ index: inout Int, until end: Int, removing indentation: [UInt8]) {
            while index < end {
                let token = tokens[index]
                switch token.kind {
                case .text:
                    emitText(token.kept, removing: indentation)
                    index += 1

                case .variable, .unescapedVariable:
                    append(.variable(name: addName(token.name), escaped: token.kind == .variable))
                    atLineStart = false
                    index += 1

                case .section, .invertedSection, .block:
                    let closer = partner[index]
                    if !token.standalone { atLineStart = false }
                    let op = ops.count
                    append(.text(start: 0, end: 0))  // patched once the body's end is known
                    index += 1
                    emit(&index, until: closer, removing: indentation)
                    if !tokens[closer].standalone { atLineStart = false }
                    index = closer + 1
                    let bodyEnd = Int32(ops.count)
                    switch token.kind {
                    case .section:
                        ops[op] = .section(name: addName(token.name), end: bodyEnd)
                    case .invertedSection:
                        ops[op] = .invertedSection(name: addName(token.name), end: bodyEnd)
                    default:
                        let argumentIndentation = relative(token.indentation, to: indentation)
                        ops[op] = .block(
                            identifier: addIdentifier(token.name), indentation: addIndentation(argumentIndentation),
                            end: bodyEnd)
                    }
                    mergeableText = nil

                case .partial:
                    references.append(reference(token.name, at: index))
                    append(
                        .partial(
                            identifier: addIdentifier(token.name),
                            indentation: addIndentation(relative(token.indentation, to: indentation))))
                    if !token.standalone { atLineStart = false }
                    index += 1

                case .parent:
                    references.append(reference(token.name, at: index))
                    let closer = partner[index]
                    let lineStartBefore = atLineStart
                    let op = ops.count
                    append(.text(start: 0, end: 0))  // patched once the arguments are emitted
                    let arguments = emitArguments(of: index, removing: indentation)
                    argumentTables.append(arguments)
                    let parentIndentation = token.standalone ? relative(token.indentation ?? [], to: indentation) : nil
                    ops[op] = .parent(
                        identifier: addIdentifier(token.name), arguments: Int32(argumentTables.count - 1),
                        indentation: addIndentation(parentIndentation), end: Int32(ops.count))
                    mergeableText = nil
                    atLineStart = token.standalone ? lineStartBefore : false
                    index = closer + 1

                case .comment, .delimiters:
                    if !token.standalone { atLineStart = false }
                    index += 1

                case .closing:
                    // Consumed with its opening tag; matchSections guarantees balance.
                    index += 1
                }
            }
        }

        /// Emits the `{{$name}}` blocks directly inside a parent; any other content there
        /// is ignored, as the spec asks.
        private mutating func emitArguments(of parent: Int, removing outer: [UInt8]) -> [String: Range<Int>] {
            var arguments: [String: Range<Int>] = [:]
            var index = parent + 1
            let end = partner[parent]
            while index < end {
                let token = tokens[index]
                switch token.kind {
                case .block:
                    let closer = partner[index]
                    let removing = token.standalone ? token.indentation ?? [] : outer
                    atLineStart = token.standalone
                    mergeableText = nil
                    let start = ops.count
                    index += 1
                    emit(&index, until: closer, removing: removing)
                    arguments[token.name] = start..<ops.count
                    mergeableText = nil
                    index = closer + 1
                case .section, .invertedSection, .parent:
                    index = partner[index] + 1
                default:
                    index += 1
                }
            }
            return arguments
        }

        private mutating func emitText(_ range: Range<Int>, removing indentation: [UInt8]) {
            guard !range.isEmpty else { return }
            let start = text.count
            if indentation.isEmpty {
                text.append(contentsOf: bytes[range])
            } else {
                var lineStart = atLineStart
                var position = range.lowerBound
                while position < range.upperBound {
                    if lineStart {
                        var matched = 0
                        while matched < indentation.count, position < range.upperBound,
                            bytes[position] == indentation[matched]
                        {
                            matched += 1
                            position += 1
                        }
                        lineStart = false
                        continue
                    }
                    let byte = bytes[position]
                    text.append(byte)
                    lineStart = byte == UInt8(ascii: "\n")
                    position += 1
                }
            }
            atLineStart = bytes[range.upperBound - 1] == UInt8(ascii: "\n")
            guard text.count > start else { return }
            // Tags that vanish (comments, standalone lines) leave neighbouring text
            // behind: one operation renders faster than two.
            if let previous = mergeableText, case .text(let previousStart, _) = ops[previous] {
                ops[previous] = .text(start: previousStart, end: Int32(text.count))
            } else {
                append(.text(start: Int32(start), end: Int32(text.count)))
                mergeableText = ops.count - 1
            }
        }

        private mutating func append(_ op: Op) {
            ops.append(op)
            mergeableText = nil
        }

        private mutating func addName(_ text: String) -> Int32 {
            names.append(Self.name(text))
            return Int32(names.count - 1)
        }

        private mutating func addIdentifier(_ identifier: String) -> Int32 {
            identifiers.append(identifier)
            return Int32(identifiers.count - 1)
        }

        private mutating func addIndentation(_ indentation: [UInt8]?) -> Int32 {
            guard let indentation else { return -1 }
            indentations.append(indentation)
            return Int32(indentations.count - 1)
        }

        /// Indentation measured in the source, made relative to the argument content it
        /// sits in (which loses `outer` at each line start).
        private func relative(_ indentation: [UInt8]?, to outer: [UInt8]) -> [UInt8]? {
            guard let indentation, !outer.isEmpty else { return indentation }
            var shared = 0
            while shared < indentation.count, shared < outer.count, indentation[shared] == outer[shared] {
                shared += 1
            }
            return Array(indentation[shared...])
        }

        private static func name(_ text: String) -> Name {
            if text == "." { return .implicit }
            let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            return parts.count == 1 ? .key(text) : .path(parts)
        }

        private func reference(_ name: String, at index: Int) -> Reference {
            Reference(name: name, line: MustacheTemplate.location(of: tokens[index].range.lowerBound, in: bytes).line)
        }

        private func error(_ reason: String, at index: Int) -> MustacheError {
            let (line, column) = MustacheTemplate.location(of: tokens[index].range.lowerBound, in: bytes)
            return MustacheError(file: templateName, line: line, column: column, reason: reason)
        }
    }
}
