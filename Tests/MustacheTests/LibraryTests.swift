// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServerMustache
import Testing

@Suite("Library")
struct LibraryTests {
    /// A fresh folder under the system's temporary directory, removed by `body`'s end.
    private func withTemporaryDirectory(
        _ files: [String: String], _ body: (String) throws -> Void
    ) throws {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("mustache-tests-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        for (relativePath, contents) in files {
            let path = root + "/" + relativePath
            try FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        }
        try body(root)
    }

    @Test func loadsTemplatesRecursivelyNamedByRelativePath() throws {
        try withTemporaryDirectory([
            "layout.mustache": "<main>\n{{$content}}{{/content}}\n</main>\n{{>partials/tabbar}}\n",
            "partials/tabbar.mustache": "<nav>{{#tabs}}[{{title}}]{{/tabs}}</nav>\n",
            "pages/music/albums.mustache": "{{<layout}}{{$content}}Albums{{/content}}{{/layout}}\n",
            "notes.txt": "not a template {{",
        ]) { root in
            let library = try MustacheLibrary(directory: root)
            #expect(library.names == ["layout", "pages/music/albums", "partials/tabbar"])
            #expect(library.missingReferences().isEmpty)

            var buffer: [UInt8] = []
            let found = library.render(
                "pages/music/albums", ["tabs": [["title": "Home"], ["title": "Music"]]], into: &buffer)
            #expect(found)
            #expect(String(decoding: buffer, as: UTF8.self) == "<main>\nAlbums\n</main>\n<nav>[Home][Music]</nav>\n")
        }
    }

    @Test func customExtensionAndTrailingSlash() throws {
        try withTemporaryDirectory(["a.html": "A", "b.mustache": "B"]) { root in
            let library = try MustacheLibrary(directory: root + "/", fileExtension: "html")
            #expect(library.names == ["a"])
        }
    }

    @Test func syntaxErrorNamesTheFilePathLineAndColumn() throws {
        try withTemporaryDirectory([
            "ok.mustache": "fine",
            "partials/broken.mustache": "<ul>\n  {{#items}}<li>{{name}}</li>\n</ul>\n",
        ]) { root in
            #expect(
                throws: MustacheError(
                    file: root + "/partials/broken.mustache", line: 2, column: 3,
                    reason: "unclosed section 'items' opened here")
            ) {
                try MustacheLibrary(directory: root)
            }
        }
    }

    @Test func missingDirectoryThrows() {
        #expect(throws: MustacheError.self) {
            try MustacheLibrary(directory: "/nonexistent/mustache-templates")
        }
    }

    @Test func missingReferencesListsEveryUnknownPartialAndParent() throws {
        var library = MustacheLibrary()
        library.register(try MustacheTemplate("{{>header}}\n{{>nav}}\n", name: "layout"), named: "layout")
        library.register(
            try MustacheTemplate(
                "a\n{{<layout}}{{/layout}}\n{{<base}}\n{{/base}}\n{{#x}}{{>footer}}{{/x}}", name: "page"),
            named: "page")
        library.register(try MustacheTemplate("<nav/>"), named: "nav")

        let missing = library.missingReferences().map { "\($0.template):\($0.line):\($0.name)" }
        #expect(missing == ["layout:1:header", "page:3:base", "page:5:footer"])
    }

    @Test func unknownTemplateRendersNothingAndReturnsFalse() {
        let library = MustacheLibrary()
        var buffer: [UInt8] = Array("kept".utf8)
        #expect(library.render("nope", [:], into: &buffer) == false)
        #expect(buffer == Array("kept".utf8))
    }

    @Test func registerReplacesAndSubscriptFinds() throws {
        var library = MustacheLibrary(templates: ["a": try MustacheTemplate("1")])
        library.register(try MustacheTemplate("2"), named: "a")
        #expect(library["a"]?.render([:]) == "2")
        #expect(library["b"] == nil)
    }
}
