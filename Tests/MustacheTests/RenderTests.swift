// SPDX-License-Identifier: Apache-2.0
import TabServerMustache
import Testing

@Suite("Rendering")
struct RenderTests {
    @Test func renderingAppendsToAPrefilledBuffer() throws {
        let template = try MustacheTemplate("Hello, {{name}}!")
        var buffer: [UInt8] = Array("<!doctype html>\n".utf8)
        template.render(["name": "World"], into: &buffer)
        template.render(["name": "again"], into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "<!doctype html>\nHello, World!Hello, again!")
    }

    @Test func escapesAllFiveHTMLCharacters() throws {
        let template = try MustacheTemplate("{{v}}|{{{v}}}|{{&v}}")
        let output = template.render(["v": "a&b<c>d\"e'f"])
        #expect(output == "a&amp;b&lt;c&gt;d&quot;e&#39;f|a&b<c>d\"e'f|a&b<c>d\"e'f")
    }

    @Test func nonASCIITemplateAndValues() throws {
        let template = try MustacheTemplate("Grüße, {{name}} — {{#tags}}«{{.}}» {{/tags}}🎵\n")
        let output = template.render(["name": "Zoë & 李", "tags": ["één", "日本"]])
        #expect(output == "Grüße, Zoë &amp; 李 — «één» «日本» 🎵\n")
        var buffer: [UInt8] = []
        template.render(["name": "Ω"], into: &buffer)
        #expect(buffer == Array("Grüße, Ω — 🎵\n".utf8))
    }

    @Test func numbersAndBooleans() throws {
        let template = try MustacheTemplate("{{a}} {{b}} {{c}} {{d}} {{e}} {{f}} {{g}}")
        let output = template.render([
            "a": 0, "b": -42, "c": .int(Int.min), "d": 1.21, "e": 2.0, "f": -0.5, "g": true,
        ])
        #expect(output == "0 -42 \(Int.min) 1.21 2 -0.5 true")
    }

    @Test(
        arguments: [
            (MustacheValue.null, false), (false, false), (true, true), (0, false), (7, true),
            (0.0, false), (0.1, true), ("", false), ("x", true), ([], false), ([1], true),
            ([:], true), (["k": nil], true),
        ] as [(MustacheValue, Bool)])
    func truthiness(_ value: MustacheValue, _ truthy: Bool) throws {
        let template = try MustacheTemplate("{{#v}}yes{{/v}}{{^v}}no{{/v}}")
        #expect(value.isTruthy == truthy)
        #expect(template.render(["v": value]) == (truthy ? "yes" : "no"))
    }

    @Test func interpolatingListsAndObjectsRendersNothing() throws {
        let template = try MustacheTemplate("[{{list}}][{{object}}]")
        #expect(template.render(["list": [1, 2], "object": ["a": 1]]) == "[][]")
    }

    @Test func referencesInSourceOrderWithLines() throws {
        let template = try MustacheTemplate("{{>a}}\n{{#x}}\n  {{>b}}\n{{/x}}\n{{<c}}{{$d}}{{>e}}{{/d}}{{/c}}")
        #expect(template.references.map(\.name) == ["a", "b", "c", "e"])
        #expect(template.references.map(\.line) == [1, 3, 5, 5])
    }

    @Test func nestedStandalonePartialsAccumulateIndentation() throws {
        let library = MustacheLibrary(templates: [
            "list": try MustacheTemplate("<ul>\n{{#items}}\n  {{>item}}\n{{/items}}\n</ul>\n"),
            "item": try MustacheTemplate("<li>\n  {{.}}\n</li>\n"),
        ])
        let page = try MustacheTemplate("<body>\n  {{>list}}\n</body>\n")
        let output = page.render(["items": ["a", "b\nc"]], partials: library)
        #expect(
            output
                == "<body>\n  <ul>\n    <li>\n      a\n    </li>\n    <li>\n      b\nc\n    </li>\n  </ul>\n</body>\n")
    }

    @Test func layoutWithIndentedBlock() throws {
        let library = MustacheLibrary(templates: [
            "layout": try MustacheTemplate(
                "<html>\n  <title>{{$title}}TabServer{{/title}}</title>\n  <main>\n    {{$content}}\n    {{/content}}\n  </main>\n</html>\n"
            )
        ])
        let page = try MustacheTemplate(
            "{{<layout}}\n  {{$title}}Music{{/title}}\n  {{$content}}\n  <h1>{{heading}}</h1>\n  <p>Hi</p>\n  {{/content}}\n{{/layout}}\n"
        )
        let output = page.render(["heading": "Albums"], partials: library)
        #expect(
            output
                == "<html>\n  <title>Music</title>\n  <main>\n    <h1>Albums</h1>\n    <p>Hi</p>\n  </main>\n</html>\n")
    }

    @Test func selfIncludingPartialStopsInsteadOfCrashing() throws {
        let library = MustacheLibrary(templates: ["loop": try MustacheTemplate("x{{>loop}}")])
        let output = try MustacheTemplate("{{>loop}}").render([:], partials: library)
        #expect(output.count == 100)
    }

    @Test func concurrentRendersMatchASerialRender() async throws {
        let library = MustacheLibrary(templates: [
            "row": try MustacheTemplate("  <li class=\"{{#selected}}on{{/selected}}\">{{title}} {{badge}}</li>\n")
        ])
        let page = try MustacheTemplate("<ul>\n{{#tabs}}\n  {{>row}}\n{{/tabs}}\n</ul>\n")
        let context: MustacheValue = [
            "tabs": .array(
                (0..<50).map { ["title": "Tab <\($0)>", "badge": .int($0), "selected": .bool($0 % 3 == 0)] })
        ]
        let expected = page.render(context, partials: library)
        let outputs = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<8 {
                group.addTask {
                    (0..<50).map { _ in page.render(context, partials: library) }
                }
            }
            var all: [String] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(outputs.count == 400)
        #expect(outputs.allSatisfy { $0 == expected })
    }
}
