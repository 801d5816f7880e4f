// SPDX-License-Identifier: Apache-2.0
extension MustacheTemplate {
    /// The mutable state of one render: lives on the caller's stack, so concurrent
    /// renders of the same template share nothing but its immutable program.
    struct Renderer {
        /// Partials and parents nest at most this deep: a template that includes itself
        /// without a data-driven end stops here instead of overflowing the thread's stack.
        static let maximumDepth = 100

        private var contexts: [MustacheValue]
        /// Arguments of the parents being rendered, outermost first: the outermost
        /// template's argument for a block wins.
        private var overrides: [(program: Program, arguments: [String: Range<Int>])] = []
        /// Prepended to each line of template text (standalone partials and parents,
        /// re-indented block arguments).
        private var indentation: [UInt8] = []
        /// Whether the last template byte written ended a line.
        private var atLineStart = true
        private var depth = 0
        private let library: MustacheLibrary?

        init(context: MustacheValue, library: MustacheLibrary?) {
            contexts = []
            contexts.reserveCapacity(8)
            contexts.append(context)
            self.library = library
        }

        mutating func render(_ program: Program, into buffer: inout [UInt8]) {
            run(program, program.ops.indices, into: &buffer)
        }

        private mutating func run(_ program: Program, _ range: Range<Int>, into buffer: inout [UInt8]) {
            let ops = program.ops
            var index = range.lowerBound
            while index < range.upperBound {
                switch ops[index] {
                case .text(let start, let end):
                    program.text.withUnsafeBufferPointer { text in
                        let bytes = UnsafeBufferPointer(rebasing: text[Int(start)..<Int(end)])
                        if indentation.isEmpty {
                            buffer.append(contentsOf: bytes)
                        } else {
                            appendIndenting(bytes, into: &buffer)
                        }
                        atLineStart = bytes[bytes.count - 1] == UInt8(ascii: "\n")
                    }
                    index += 1

                case .variable(let name, let escaped):
                    appendValue(resolve(program.names[Int(name)]), escaped: escaped, into: &buffer)
                    index += 1

                case .section(let name, let end):
                    let body = index + 1..<Int(end)
                    let value = resolve(program.names[Int(name)])
                    if case .array(let items) = value {
                        for item in items {
                            contexts.append(item)
                            run(program, body, into: &buffer)
                            contexts.removeLast()
                        }
                    } else if value.isTruthy {
                        contexts.append(value)
                        run(program, body, into: &buffer)
                        contexts.removeLast()
                    }
                    index = Int(end)

                case .invertedSection(let name, let end):
                    if !resolve(program.names[Int(name)]).isTruthy {
                        run(program, index + 1..<Int(end), into: &buffer)
                    }
                    index = Int(end)

                case .partial(let identifier, let indentationIndex):
                    if depth < Self.maximumDepth, let template = library?[program.identifiers[Int(identifier)]] {
                        include(
                            template.program, standaloneIndentation: program.indentation(at: indentationIndex),
                            into: &buffer)
                    }
                    index += 1

                case .parent(let identifier, let arguments, let indentationIndex, let end):
                    if depth < Self.maximumDepth, let template = library?[program.identifiers[Int(identifier)]] {
                        overrides.append((program, program.arguments[Int(arguments)]))
                        include(
                            template.program, standaloneIndentation: program.indentation(at: indentationIndex),
                            into: &buffer)
                        overrides.removeLast()
                    }
                    index = Int(end)

                case .block(let identifier, let indentationIndex, let end):
                    if let (argumentProgram, argument) = override(named: program.identifiers[Int(identifier)]) {
                        // An argument may contain its own block; the depth limit stops a loop.
                        if depth < Self.maximumDepth {
                            let saved = indentation
                            if let argumentIndentation = program.indentation(at: indentationIndex) {
                                indentation += argumentIndentation
                            }
                            depth += 1
                            run(argumentProgram, argument, into: &buffer)
                            depth -= 1
                            indentation = saved
                        }
                    } else {
                        run(program, index + 1..<Int(end), into: &buffer)
                    }
                    index = Int(end)
                }
            }
        }

        /// Renders a partial or parent. A standalone one indents every line of it by the
        /// tag's indentation; an inline one continues the current line and indents nothing,
        /// which is what indenting the partial's source (the spec's model) amounts to.
        private mutating func include(_ program: Program, standaloneIndentation: [UInt8]?, into buffer: inout [UInt8]) {
            let saved = indentation
            if let standaloneIndentation {
                indentation += standaloneIndentation
                atLineStart = true
            } else {
                indentation = []
            }
            depth += 1
            render(program, into: &buffer)
            depth -= 1
            indentation = saved
        }

        private func override(named name: String) -> (Program, Range<Int>)? {
            for (program, arguments) in overrides {
                if let argument = arguments[name] { return (program, argument) }
            }
            return nil
        }

        // MARK: Names

        private func resolve(_ name: Name) -> MustacheValue {
            switch name {
            case .implicit:
                return contexts[contexts.count - 1]
            case .key(let key):
                return lookUp(key) ?? .null
            case .path(let parts):
                guard var value = lookUp(parts[0]) else { return .null }
                for part in parts.dropFirst() {
                    guard let member = value.member(part) else { return .null }
                    value = member
                }
                return value
            }
        }

        /// The first context, from the top of the stack, that is an object holding `key`.
        private func lookUp(_ key: String) -> MustacheValue? {
            var index = contexts.count - 1
            while index >= 0 {
                if let value = contexts[index].member(key) { return value }
                index -= 1
            }
            return nil
        }

        // MARK: Output

        private mutating func appendValue(_ value: MustacheValue, escaped: Bool, into buffer: inout [UInt8]) {
            guard value.rendersText else { return }
            if atLineStart, !indentation.isEmpty {
                buffer.append(contentsOf: indentation)
            }
            // Newlines inside a value are data, not template lines: nothing after it is
            // a template line start until template text ends one.
            atLineStart = false
            switch value {
            case .null, .array, .object:
                break
            case .bool(let flag):
                appendASCII(flag ? "true" : "false", into: &buffer)
            case .int(let number):
                appendDecimal(number, into: &buffer)
            case .double(let number):
                appendNumber(number, into: &buffer)
            case .string(let string):
                if escaped {
                    appendEscapingHTML(string, into: &buffer)
                } else {
                    buffer.append(contentsOf: string.utf8)
                }
            }
        }

        /// Appends template text, writing the indentation before each line that has bytes.
        private mutating func appendIndenting(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
            var lineStart = 0
            while lineStart < bytes.count {
                if atLineStart { buffer.append(contentsOf: indentation) }
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                if lineEnd < bytes.count {
                    lineEnd += 1
                    atLineStart = true
                } else {
                    atLineStart = false
                }
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[lineStart..<lineEnd]))
                lineStart = lineEnd
            }
        }
    }
}

extension MustacheValue {
    /// The member `key` of an object. A method rather than a pattern match at the call
    /// site: `self` is borrowed, so the dictionary is read without being retained.
    fileprivate func member(_ key: String) -> MustacheValue? {
        switch self {
        case .object(let members): members[key]
        default: nil
        }
    }

    /// Whether interpolating the value writes anything.
    fileprivate var rendersText: Bool {
        switch self {
        case .null, .array, .object: false
        case .string(let string): !string.isEmpty
        case .bool, .int, .double: true
        }
    }
}

extension MustacheTemplate.Program {
    /// The indentation an operation refers to, or `nil` for -1.
    fileprivate func indentation(at index: Int32) -> [UInt8]? {
        index < 0 ? nil : indentations[Int(index)]
    }
}
