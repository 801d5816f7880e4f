// SPDX-License-Identifier: Apache-2.0
extension MustacheTemplate {
    /// A compiled template: a flat list of operations over side tables.
    ///
    /// Everything the spec decides from the source alone (standalone lines, indentation,
    /// block re-indentation, name splitting) is settled when the program is built, so
    /// rendering is a loop over `ops`. Operations hold only integers, so reading one
    /// involves no reference counting, unlike a tree of enum nodes holding arrays.
    ///
    /// A class so that templates, partial lookups and the renderer's override stack
    /// share one instance; it is immutable after construction, hence `Sendable`.
    final class Program: Sendable {
        /// The operations; a section's body is the run of operations up to its `end`.
        let ops: [Op]
        /// All static text, back to back; `.text` operations address ranges of it.
        let text: [UInt8]
        /// Interpolation and section names.
        let names: [Name]
        /// Partial, parent and block names.
        let identifiers: [String]
        /// Indentations of standalone partials and parents, and of re-indented arguments.
        let indentations: [[UInt8]]
        /// For each parent tag, its `{{$name}}` arguments: ranges of `ops`.
        let arguments: [[String: Range<Int>]]

        init(
            ops: [Op], text: [UInt8], names: [Name], identifiers: [String], indentations: [[UInt8]],
            arguments: [[String: Range<Int>]]
        ) {
            self.ops = ops
            self.text = text
            self.names = names
            self.identifiers = identifiers
            self.indentations = indentations
            self.arguments = arguments
        }
    }

    /// One step of a program. Indices point into the program's tables; `end` is the
    /// index of the first operation after a body; an indentation of -1 means none.
    enum Op: Sendable {
        /// Static text: `text[start..<end]`.
        case text(start: Int32, end: Int32)
        /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}`.
        case variable(name: Int32, escaped: Bool)
        /// `{{#name}}…{{/name}}`.
        case section(name: Int32, end: Int32)
        /// `{{^name}}…{{/name}}`.
        case invertedSection(name: Int32, end: Int32)
        /// `{{>name}}`; the indentation is set when the tag stands alone on its line.
        case partial(identifier: Int32, indentation: Int32)
        /// `{{<name}}…{{/name}}`; its arguments' operations follow it, up to `end`.
        case parent(identifier: Int32, arguments: Int32, indentation: Int32, end: Int32)
        /// `{{$name}}…{{/name}}` outside a parent: the default content runs up to `end`;
        /// the indentation is what an overriding argument gets when the block stands alone.
        case block(identifier: Int32, indentation: Int32, end: Int32)
    }

    /// A tag's name, split on dots once, at compile time.
    enum Name: Sendable, Equatable {
        /// `.`: the top of the context stack.
        case implicit
        /// A name without dots: the common case, looked up without a loop over parts.
        case key(String)
        /// `a.b.c`: the first part through the context stack, the rest through its result.
        case path([String])
    }
}
