// SPDX-License-Identifier: Apache-2.0
/// A compiled Mustache template.
///
/// Compile once at start-up, then render many times, from many threads at once: a
/// template is an immutable value, and rendering only reads it.
///
/// ```swift
/// let row = try MustacheTemplate("<li{{#selected}} aria-current=\"page\"{{/selected}}>{{title}}</li>\n")
/// let page = try MustacheTemplate("<ul>\n{{#tabs}}\n  {{>row}}\n{{/tabs}}\n</ul>\n", name: "bar")
/// let library = MustacheLibrary(templates: ["row": row])
///
/// var buffer: [UInt8] = []
/// buffer.reserveCapacity(8 * 1024)
/// page.render(["tabs": [["title": "Home", "selected": true], ["title": "Music"]]],
///             partials: library, into: &buffer)
/// ```
///
/// Supported: escaped and unescaped interpolation, dotted names, `{{.}}`, sections,
/// inverted sections, comments, partials (with standalone indentation), set delimiters,
/// and template inheritance (`{{<parent}}` with `{{$block}}` arguments). Lambdas and
/// dynamic names are not: a `MustacheValue` carries no functions.
public struct MustacheTemplate: Sendable {
    /// The name given at compile time; errors and references use it.
    public let name: String

    let program: Program
    let referenceList: [Reference]

    /// Compiles `source`.
    ///
    /// - Parameters:
    ///   - source: The template text.
    ///   - name: Used in error messages and in ``MustacheLibrary/missingReferences()``.
    /// - Throws: ``MustacheError`` with the line, column and reason of the first syntax error.
    public init(_ source: String, name: String = "<inline>") throws(MustacheError) {
        var parser = Parser(source: Array(source.utf8), templateName: name)
        let (program, references) = try parser.parse()
        self.name = name
        self.program = program
        self.referenceList = references
    }

    /// Appends the rendered output (UTF-8) to `buffer`, keeping what is already there.
    ///
    /// - Parameters:
    ///   - context: The bottom of the context stack.
    ///   - partials: Where `{{>name}}` and `{{<name}}` look templates up; an unknown
    ///     name renders as nothing, as the spec asks.
    ///   - buffer: Output; reuse one per thread to avoid reallocating it per page.
    public func render(_ context: MustacheValue, partials: MustacheLibrary? = nil, into buffer: inout [UInt8]) {
        var renderer = Renderer(context: context, library: partials)
        renderer.render(program, into: &buffer)
    }

    /// Renders into a new `String`; convenient in tests and tools, slower than
    /// ``render(_:partials:into:)`` on a reused buffer.
    public func render(_ context: MustacheValue, partials: MustacheLibrary? = nil) -> String {
        var buffer: [UInt8] = []
        render(context, partials: partials, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Names of the partials (`{{>name}}`) and parents (`{{<name}}`) this template
    /// refers to, in source order, with the 1-based line of each reference.
    public var references: [(name: String, line: Int)] {
        referenceList.map { (name: $0.name, line: $0.line) }
    }
}

extension MustacheTemplate {
    /// A partial or parent tag, kept so a library can be checked for missing templates
    /// at start-up instead of rendering nothing at request time.
    struct Reference: Sendable, Equatable {
        let name: String
        let line: Int
    }
}
