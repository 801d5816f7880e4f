// SPDX-License-Identifier: Apache-2.0
/// Named templates: the partials, layouts and pages of an application.
///
/// Build it once at start-up (usually with ``init(directory:fileExtension:)``), check
/// ``missingReferences()``, then share it: it is an immutable value once built.
///
/// ```swift
/// let library = try MustacheLibrary(directory: "Templates")
/// for missing in library.missingReferences() {
///     print("\(missing.template):\(missing.line): no template named '\(missing.name)'")
/// }
/// var buffer: [UInt8] = []
/// library.render("pages/music", ["title": "Music"], into: &buffer)
/// ```
public struct MustacheLibrary: Sendable {
    private var templates: [String: MustacheTemplate]

    /// An empty library.
    public init() {
        templates = [:]
    }

    /// A library of the given templates, keyed by the name partial tags use.
    public init(templates: [String: MustacheTemplate]) {
        self.templates = templates
    }

    /// Adds `template` under `name`, replacing any template of that name.
    public mutating func register(_ template: MustacheTemplate, named name: String) {
        templates[name] = template
    }

    /// The template named `name`, as `{{>name}}` and `{{<name}}` find it.
    public subscript(name: String) -> MustacheTemplate? {
        templates[name]
    }

    /// Every template name, sorted.
    public var names: [String] {
        templates.keys.sorted()
    }

    /// Renders template `name` against `context`, resolving its partials in this library,
    /// and appends the output to `buffer`.
    ///
    /// - Returns: `false`, appending nothing, when no template has that name.
    @discardableResult
    public func render(_ name: String, _ context: MustacheValue, into buffer: inout [UInt8]) -> Bool {
        guard let template = templates[name] else { return false }
        template.render(context, partials: self, into: &buffer)
        return true
    }

    /// Every partial or parent reference, in any template of the library, that names no
    /// template in it: such a tag renders nothing, which start-up should catch instead.
    /// Sorted by template name, then line.
    public func missingReferences() -> [(template: String, line: Int, name: String)] {
        var missing: [(template: String, line: Int, name: String)] = []
        for name in names {
            guard let template = templates[name] else { continue }
            for reference in template.referenceList where templates[reference.name] == nil {
                missing.append((template: name, line: reference.line, name: reference.name))
            }
        }
        return missing
    }
}
