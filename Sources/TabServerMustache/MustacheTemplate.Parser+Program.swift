// SPDX-License-Identifier: Apache-2.0

/// Emitting the program from the matched, trimmed tokens.
extension MustacheTemplate.Parser {
    /// Emits the operations of tokens `index..<end`.
    /// - Parameter removing: indentation that argument content loses at each line start.
    mutating func emit(_ index: inout Int, until end: Int, removing indentation: [UInt8]) {
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
    mutating func emitArguments(of parent: Int, removing outer: [UInt8]) -> [String: Range<Int>] {
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

    mutating func emitText(_ range: Range<Int>, removing indentation: [UInt8]) {
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

    mutating func append(_ op: MustacheTemplate.Op) {
        ops.append(op)
        mergeableText = nil
    }

    mutating func addName(_ text: String) -> Int32 {
        names.append(Self.name(text))
        return Int32(names.count - 1)
    }

    mutating func addIdentifier(_ identifier: String) -> Int32 {
        identifiers.append(identifier)
        return Int32(identifiers.count - 1)
    }

    mutating func addIndentation(_ indentation: [UInt8]?) -> Int32 {
        guard let indentation else { return -1 }
        indentations.append(indentation)
        return Int32(indentations.count - 1)
    }

    /// Indentation measured in the source, made relative to the argument content it
    /// sits in (which loses `outer` at each line start).
    func relative(_ indentation: [UInt8]?, to outer: [UInt8]) -> [UInt8]? {
        guard let indentation, !outer.isEmpty else { return indentation }
        var shared = 0
        while shared < indentation.count, shared < outer.count, indentation[shared] == outer[shared] {
            shared += 1
        }
        return Array(indentation[shared...])
    }

    static func name(_ text: String) -> MustacheTemplate.Name {
        if text == "." { return .implicit }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        return parts.count == 1 ? .key(text) : .path(parts)
    }

    func reference(_ name: String, at index: Int) -> MustacheTemplate.Reference {
        MustacheTemplate.Reference(
            name: name, line: MustacheTemplate.location(of: tokens[index].range.lowerBound, in: bytes).line)
    }

    func error(_ reason: String, at index: Int) -> MustacheError {
        let (line, column) = MustacheTemplate.location(of: tokens[index].range.lowerBound, in: bytes)
        return MustacheError(file: templateName, line: line, column: column, reason: reason)
    }
}
