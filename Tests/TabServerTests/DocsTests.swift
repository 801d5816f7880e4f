// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerAppModel
import TabServerCore
import Testing

/// The docs' tables stay true to the code: docs/configuration.md to `--help`, and
/// docs/swift-api.md's module table to Package.swift. Both sides are read from the code
/// each time, so renaming a target or adding a setting fails here until the docs follow.
@Suite("The docs match the code")
struct DocsTests {
    /// The package's root, found from this file (Tests/TabServerTests/DocsTests.swift).
    static let root: String = {
        var parts = String(#filePath).split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    static func read(_ relativePath: String) throws -> String {
        let data = try #require(FileManager.default.contents(atPath: root + "/" + relativePath), "\(relativePath)")
        return String(decoding: data, as: UTF8.self)
    }

    /// The names between backticks in a table cell: "`TABSERVER_PORT` (or `PORT`)" → both.
    static func quoted(_ cell: Substring) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The cells of the Markdown table rows in `text` whose first cell starts with `prefix`.
    static func rows(_ text: Substring, firstCellPrefix prefix: String) -> [[Substring]] {
        text.split(separator: "\n").filter { $0.hasPrefix("| " + prefix) }.map { line in
            Array(line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast())
        }
    }

    // MARK: - Configuration

    @Test("every flag and variable --help prints is in docs/configuration.md's table, and the table has no others")
    func configurationTableMatchesHelp() throws {
        var helpFlags: [String] = []
        var helpVariables: Set<String> = []
        for line in AppConfiguration.helpText.split(separator: "\n") {
            if line.hasPrefix("  --") {
                let flag = line.dropFirst(2).prefix { $0 != " " }
                helpFlags.append(String(flag))
            } else if line.hasPrefix("      "), let end = line.range(of: ", default: ") {
                let variables = line[..<end.lowerBound].trimmingCharacters(in: .whitespaces)
                helpVariables.formUnion(variables.components(separatedBy: " or "))
            }
        }
        try #require(!helpFlags.isEmpty, "--help lists no flags")

        let table = Self.rows(try Self.read("docs/configuration.md")[...], firstCellPrefix: "`--")
        let tableFlags = table.flatMap { Self.quoted($0[0]) }
        let tableVariables = Set(table.flatMap { Self.quoted($0[1]) })

        #expect(tableFlags == helpFlags, "the table's flags, in order, are --help's")
        #expect(Set(helpFlags).subtracting(tableFlags).sorted() == [], "flags --help prints that the table lacks")
        #expect(Set(tableFlags).subtracting(helpFlags).sorted() == [], "flags in the table that --help does not know")
        #expect(helpVariables.subtracting(tableVariables).sorted() == [], "variables the table lacks")
        #expect(tableVariables.subtracting(helpVariables).sorted() == [], "variables --help does not know")
    }

    // MARK: - Modules

    /// One target of Package.swift as the docs describe it.
    struct Target: Equatable, CustomTestStringConvertible {
        var name: String
        var kind: String
        var products: [String]
        var dependencies: [String]
        var testDescription: String {
            "\(name) (\(kind); products \(products); depends on \(dependencies))"
        }
    }

    @Test("docs/swift-api.md's module table names exactly Package.swift's targets, kinds, products and dependencies")
    func moduleTableMatchesPackage() throws {
        let manifest = try PackageManifest(Self.read("Package.swift"))
        try #require(!manifest.targets.isEmpty, "no targets found in Package.swift")

        let page = try Self.read("docs/swift-api.md")
        let start = try #require(page.range(of: "\n## Modules and targets\n"), "docs/swift-api.md has no module table")
        let section = page[start.upperBound...].components(separatedBy: "\n## ").first ?? ""
        let documented = Self.rows(section[...], firstCellPrefix: "`").map { cells in
            Target(
                name: Self.quoted(cells[0]).first ?? "", kind: cells[1].trimmingCharacters(in: .whitespaces),
                products: Self.quoted(cells[2]).sorted(), dependencies: Self.quoted(cells[4]).sorted())
        }

        let documentedNames = documented.map(\.name)
        let codeNames = manifest.targets.map(\.name)
        #expect(Set(codeNames).subtracting(documentedNames).sorted() == [], "targets the table lacks")
        #expect(Set(documentedNames).subtracting(codeNames).sorted() == [], "targets Package.swift does not have")
        #expect(Set(documentedNames).count == documentedNames.count, "a target listed twice")
        for row in documented {
            guard let target = manifest.targets.first(where: { $0.name == row.name }) else { continue }
            let code = Target(
                name: target.name, kind: target.kind, products: manifest.products(containing: target.name),
                dependencies: target.dependencies.sorted())
            #expect(row == code, "the table's row for \(row.name) differs from Package.swift")
        }
        // "Bottom up": a target depends only on targets listed before it.
        for (index, row) in documented.enumerated() {
            let before = Set(documentedNames[..<index])
            for dependency in row.dependencies where !before.contains(dependency) {
                Issue.record("\(row.name) depends on \(dependency), which the table lists later (or not at all)")
            }
        }
    }

    @Test("Package.swift's text is read the way SwiftPM reads it, for this manifest's style")
    func manifestReader() throws {
        let manifest = try PackageManifest(
            """
            let package = Package(
                products: [.library(name: "Lib", targets: ["A", "B"]), .executable(name: "tool", targets: ["T"])],
                targets: [
                    // .target(name: "Commented"),
                    .systemLibrary(name: "CX", pkgConfig: "x", providers: [.apt(["libx-dev"])]),
                    .target(name: "A", dependencies: ["CX", .product(name: "P", package: "other")]),  // "ignored"
                    .target(
                        name: "B",
                        dependencies: [.target(name: "A"), "CX"]),
                    .executableTarget(name: "T", dependencies: ["B"]),
                    .testTarget(name: "ATests", dependencies: ["A", .target(name: "CX")]),
                ]
            )
            """)
        #expect(manifest.targets.map(\.name) == ["CX", "A", "B", "T"])
        #expect(manifest.targets.map(\.kind) == ["system library", "library", "library", "executable"])
        #expect(manifest.targets.map(\.dependencies) == [[], ["CX", "P"], ["A", "CX"], ["B"]])
        #expect(manifest.products(containing: "A") == ["Lib"])
        #expect(manifest.products(containing: "T") == ["tool"])
        #expect(manifest.products(containing: "CX") == [])
    }

    // MARK: - Links

    /// GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens.
    static func anchor(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                if character.isLetter || character.isNumber || character == "-" || character == "_" { return character }
                return nil
            })
    }

    /// The lines of a Markdown file outside fenced code blocks.
    static func prose(_ text: String) -> [Substring] {
        var inFence = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") {
                inFence.toggle()
                return false
            }
            return !inFence
        }
    }

    static func anchors(_ text: String) -> Set<String> {
        Set(
            prose(text).filter { $0.hasPrefix("#") }.map { line in
                anchor(line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces))
            })
    }

    static var markdownFiles: [String] {
        let pages = (try? FileManager.default.contentsOfDirectory(atPath: root + "/docs")) ?? []
        return ["README.md"] + pages.filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
    }

    @Test("every relative link and anchor in README.md and docs/ leads somewhere")
    func linksResolve() throws {
        var checked = 0
        for file in Self.markdownFiles {
            let text = try Self.read(file)
            let directory = file.contains("/") ? String(file.prefix { $0 != "/" }) + "/" : ""
            for line in Self.prose(text) {
                var rest = line[...]
                while let open = rest.range(of: "](") {
                    let target = rest[open.upperBound...].prefix { $0 != ")" }
                    rest = rest[open.upperBound...]
                    if target.contains("://") || target.hasPrefix("mailto:") { continue }
                    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                    let path = parts[0].isEmpty ? file : Self.normalized(directory + parts[0])
                    checked += 1
                    guard FileManager.default.fileExists(atPath: Self.root + "/" + path) else {
                        Issue.record("\(file) links to \(target): no file \(path)")
                        continue
                    }
                    if parts.count == 2, path.hasSuffix(".md") {
                        let anchors = Self.anchors(try Self.read(path))
                        #expect(anchors.contains(String(parts[1])), "\(file) links to \(target): no such heading")
                    }
                }
            }
        }
        #expect(checked > 20, "links were found and checked")
    }

    /// `docs/../README.md` → `README.md`.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == ".." { _ = parts.popLast() } else if part != "." { parts.append(part) }
        }
        return parts.joined(separator: "/")
    }

    @Test("README.md is a front door of at most 200 lines; it links the docs index, which links every page")
    func frontDoor() throws {
        let readme = try Self.read("README.md")
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 200, "README.md has \(lines) lines")
        #expect(readme.contains("(docs/README.md)"))
        let index = try Self.read("docs/README.md")
        for page in Self.markdownFiles where page.hasPrefix("docs/") && page != "docs/README.md" {
            #expect(index.contains("(\(page.dropFirst("docs/".count)))"), "docs/README.md does not link \(page)")
        }
    }
}

/// The targets and products of a Package.swift, read from its text: every
/// `.systemLibrary(`, `.target(` and `.executableTarget(` call with its `name:` and the
/// names in its `dependencies:` (string literals, `.target(name:)`, `.product(name:)`), and
/// every `.library(` and `.executable(` product with its `targets:`. Comments are skipped.
struct PackageManifest {
    struct Target {
        var name: String
        var kind: String
        var dependencies: [String]
    }
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    var targets: [Target] = []
    var products: [(name: String, targets: [String])] = []

    init(_ text: String) throws {
        let source = Self.withoutComments(text)
        let kinds = [".systemLibrary(": "system library", ".target(": "library", ".executableTarget(": "executable"]
        let products = [".library(", ".executable("]
        let skipped = [".testTarget(", ".plugin(", ".binaryTarget(", ".macro("]  // read past, not listed
        var index = source.startIndex
        while let (call, kind) = Self.nextCall(in: source, from: index, among: Array(kinds.keys) + products + skipped) {
            let arguments = try Self.balanced(source, from: call.upperBound)
            index = arguments.upperBound
            if skipped.contains(kind) { continue }
            let body = source[call.upperBound..<arguments.upperBound]
            guard let name = Self.stringLiterals(in: Self.argument("name:", in: body) ?? "").first else {
                throw ParseError(description: "a \(kind) call without a name")
            }
            if let targetKind = kinds[kind] {
                let dependencies = Self.argument("dependencies:", in: body).map(Self.dependencyNames) ?? []
                targets.append(Target(name: name, kind: targetKind, dependencies: dependencies))
            } else {
                self.products.append((name, Self.stringLiterals(in: Self.argument("targets:", in: body) ?? "")))
            }
        }
    }

    func products(containing target: String) -> [String] {
        products.filter { $0.targets.contains(target) }.map(\.name).sorted()
    }

    /// The text without `//` comments (a `//` inside a string literal is kept).
    static func withoutComments(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            var quotes = 0
            var previous: Character = " "
            for index in line.indices {
                let character = line[index]
                if character == "\"" { quotes += 1 }
                if character == "/", previous == "/", quotes % 2 == 0 {
                    return line[..<line.index(before: index)]
                }
                previous = character
            }
            return line
        }.joined(separator: "\n")
    }

    /// The earliest of `names` at or after `start`, and which one it was.
    static func nextCall(in text: String, from start: String.Index, among names: [String]) -> (
        Range<String.Index>, String
    )? {
        names.compactMap { name in text.range(of: name, range: start..<text.endIndex).map { ($0, name) } }
            .min { $0.0.lowerBound < $1.0.lowerBound }
    }

    /// The range from `start` (just after an opening parenthesis) to its closing one.
    static func balanced(_ text: String, from start: String.Index) throws -> Range<String.Index> {
        var depth = 1
        var inString = false
        var index = start
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == "(" || character == "[" { depth += 1 }
                if character == ")" || character == "]" { depth -= 1 }
                if depth == 0 { return start..<index }
            }
            index = text.index(after: index)
        }
        throw ParseError(description: "an unbalanced call")
    }

    /// The text of the labelled argument `label` (up to the next top-level comma).
    static func argument(_ label: String, in body: Substring) -> Substring? {
        var depth = 0
        var inString = false
        var index = body.startIndex
        while index < body.endIndex {
            let character = body[index]
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == "(" || character == "[" { depth += 1 }
                if character == ")" || character == "]" { depth -= 1 }
                if depth == 0, body[index...].hasPrefix(label) {
                    let value = body[body.index(index, offsetBy: label.count)...]
                    var end = value.startIndex
                    var valueDepth = 0
                    var valueInString = false
                    while end < value.endIndex {
                        let next = value[end]
                        if next == "\"" { valueInString.toggle() }
                        if !valueInString {
                            if next == "(" || next == "[" { valueDepth += 1 }
                            if next == ")" || next == "]" { valueDepth -= 1 }
                            if next == ",", valueDepth == 0 { break }
                        }
                        end = value.index(after: end)
                    }
                    return value[..<end]
                }
            }
            index = body.index(after: index)
        }
        return nil
    }

    /// Names in a dependencies list: string literals, except the `package:` of a `.product`.
    static func dependencyNames(_ list: Substring) -> [String] {
        var text = String(list)
        while let package = text.range(of: "package:") {
            let rest = text[package.upperBound...]
            guard let open = rest.firstIndex(of: "\""),
                let close = rest[rest.index(after: open)...].firstIndex(of: "\"")
            else { break }
            text.removeSubrange(package.lowerBound...close)
        }
        return stringLiterals(in: text[...])
    }

    static func stringLiterals(in text: Substring) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
