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
        var tokens: [Token] = []
        /// For an opening tag, the index of its closing tag, and the reverse.
        var partner: [Int] = []
        /// The innermost open section, parent or block around each token, or -1.
        var enclosing: [Int] = []
        var references: [Reference] = []
        /// While emitting: whether the next kept byte starts a line.
        var atLineStart = true
        /// The program under construction.
        var ops: [Op] = []
        var text: [UInt8] = []
        var names: [Name] = []
        var identifiers: [String] = []
        var indentations: [[UInt8]] = []
        var argumentTables: [[String: Range<Int>]] = []
        /// The last operation, when it is text that following text may extend.
        var mergeableText: Int?

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

        mutating func matchSections() throws(MustacheError) {
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
        func checkNames() throws(MustacheError) {
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
    }
}
