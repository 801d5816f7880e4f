extension MustacheTemplate {
    /// The mutable state of one render: lives on the caller's stack, so concurrent
    /// renders of the same template share nothing but immutable nodes.
    struct Renderer {
        /// Partials and parents nest at most this deep: a template that includes itself
        /// without a data-driven end stops here instead of overflowing the thread's stack.
        static let maximumDepth = 100

        private var contexts: [MustacheValue]
        /// Arguments of the parents being rendered, outermost first: the outermost
        /// template's argument for a block wins.
        private var overrides: [[String: [Node]]] = []
        /// Prepended to each line of template text (standalone partials and parents,
        /// re-indented block arguments).
        private var indentation: [UInt8] = []
        /// Whether the last template byte written ended a line.
        private var atLineStart = true
        private var depth = 0
        private let library: MustacheLibrary?

        init(context: MustacheValue, library: MustacheLibrary?) {
            contexts = [context]
            contexts.reserveCapacity(8)
            self.library = library
        }

        mutating func render(_ nodes: [Node], into buffer: inout [UInt8]) {
            for node in nodes {
                switch node {
                case .text(let text):
                    if indentation.isEmpty {
                        buffer.append(contentsOf: text.bytes)
                    } else {
                        appendIndenting(text.bytes, into: &buffer)
                    }
                    atLineStart = text.endsLine

                case .variable(let name, let escaped):
                    appendValue(resolve(name), escaped: escaped, into: &buffer)

                case .section(let name, let body):
                    let value = resolve(name)
                    if case .array(let items) = value {
                        for item in items {
                            contexts.append(item)
                            render(body, into: &buffer)
                            contexts.removeLast()
                        }
                    } else if value.isTruthy {
                        contexts.append(value)
                        render(body, into: &buffer)
                        contexts.removeLast()
                    }

                case .invertedSection(let name, let body):
                    if !resolve(name).isTruthy {
                        render(body, into: &buffer)
                    }

                case .partial(let name, let standaloneIndentation):
                    guard depth < Self.maximumDepth, let template = library?[name] else { break }
                    include(template.nodes, standaloneIndentation: standaloneIndentation, into: &buffer)

                case .parent(let name, let arguments, let standaloneIndentation):
                    guard depth < Self.maximumDepth, let template = library?[name] else { break }
                    overrides.append(arguments)
                    include(template.nodes, standaloneIndentation: standaloneIndentation, into: &buffer)
                    overrides.removeLast()

                case .block(let name, let defaultContent, let argumentIndentation):
                    guard let argument = override(named: name) else {
                        render(defaultContent, into: &buffer)
                        break
                    }
                    // An argument may contain its own block; the depth limit stops a loop.
                    guard depth < Self.maximumDepth else { break }
                    let saved = indentation
                    if let argumentIndentation, !argumentIndentation.isEmpty {
                        indentation += argumentIndentation
                    }
                    depth += 1
                    render(argument, into: &buffer)
                    depth -= 1
                    indentation = saved
                }
            }
        }

        /// Renders a partial or parent. A standalone one indents every line of it by the
        /// tag's indentation; an inline one continues the current line and indents nothing,
        /// which is what indenting the partial's source (the spec's model) amounts to.
        private mutating func include(_ nodes: [Node], standaloneIndentation: [UInt8]?, into buffer: inout [UInt8]) {
            let saved = indentation
            if let standaloneIndentation {
                if !standaloneIndentation.isEmpty { indentation += standaloneIndentation }
                atLineStart = true
            } else {
                indentation = []
            }
            depth += 1
            render(nodes, into: &buffer)
            depth -= 1
            indentation = saved
        }

        private func override(named name: String) -> [Node]? {
            for arguments in overrides {
                if let argument = arguments[name] { return argument }
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
                    guard case .object(let members) = value, let member = members[part] else { return .null }
                    value = member
                }
                return value
            }
        }

        /// The first context, from the top of the stack, that is an object holding `key`.
        private func lookUp(_ key: String) -> MustacheValue? {
            var index = contexts.count - 1
            while index >= 0 {
                if case .object(let members) = contexts[index], let value = members[key] {
                    return value
                }
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
        private mutating func appendIndenting(_ bytes: [UInt8], into buffer: inout [UInt8]) {
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
                buffer.append(contentsOf: bytes[lineStart..<lineEnd])
                lineStart = lineEnd
            }
        }
    }
}

extension MustacheValue {
    /// Whether interpolating the value writes anything.
    fileprivate var rendersText: Bool {
        switch self {
        case .null, .array, .object: false
        case .string(let string): !string.isEmpty
        case .bool, .int, .double: true
        }
    }
}
