// SPDX-License-Identifier: Apache-2.0
import TabServerMustache
import Testing

@Suite("Syntax errors")
struct ErrorTests {
    private func compileError(_ source: String, name: String = "page") -> MustacheError? {
        do {
            _ = try MustacheTemplate(source, name: name)
            return nil
        } catch {
            return error
        }
    }

    @Test func unclosedSectionPointsAtItsOpeningTag() {
        let error = compileError("<ul>\n  {{#items}}\n    <li>{{name}}</li>\n</ul>\n")
        #expect(
            error == MustacheError(file: "page", line: 2, column: 3, reason: "unclosed section 'items' opened here"))
    }

    @Test func unclosedParentAndBlockSayWhatTheyAre() {
        #expect(compileError("{{<layout}}")?.reason == "unclosed parent 'layout' opened here")
        #expect(compileError("x\n{{$title}}")?.reason == "unclosed block 'title' opened here")
        #expect(compileError("x\n{{$title}}")?.line == 2)
    }

    @Test func mismatchedClosingTagPointsAtTheClosingTag() {
        let error = compileError("{{#a}}\n{{#b}}x {{/a}}\n{{/b}}")
        #expect(
            error == MustacheError(file: "page", line: 2, column: 9, reason: "mismatched closing tag 'a', expected 'b'")
        )
    }

    @Test func closingTagWithoutOpeningTag() {
        let error = compileError("text {{/a}}")
        #expect(error == MustacheError(file: "page", line: 1, column: 6, reason: "unexpected closing tag 'a'"))
    }

    @Test func unclosedTagPointsAtItsOpeningDelimiter() {
        #expect(
            compileError("a\nb {{name\n") == MustacheError(file: "page", line: 2, column: 3, reason: "unclosed tag"))
        #expect(compileError("{{{name}}")?.reason == "unclosed tag")
        #expect(compileError("{{! no end")?.reason == "unclosed tag")
    }

    @Test(arguments: ["{{=<% %>}}", "{{=<%%>=}}", "{{=<% = %>=}}", "{{=a b c=}}", "{{= =}}"])
    func badDelimiters(_ source: String) {
        let error = compileError("ok\n  " + source)
        #expect(error == MustacheError(file: "page", line: 2, column: 3, reason: "invalid delimiters"))
    }

    @Test func emptyAndMalformedNames() {
        #expect(compileError("{{}}")?.reason == "empty tag")
        #expect(compileError("{{# }}x{{/ }}")?.reason == "empty tag")
        #expect(compileError("{{a b}}")?.reason == "invalid tag name 'a b'")
        #expect(compileError("{{a..b}}")?.reason == "invalid tag name 'a..b'")
        #expect(compileError("{{#.a}}{{/.a}}")?.reason == "invalid tag name '.a'")
    }

    @Test func columnsCountCharactersNotBytes() {
        let error = compileError("héllo wörld {{#x}}")
        #expect(error?.column == 13)
    }

    @Test func descriptionIsFileLineColumnReason() {
        let error = MustacheError(file: "Templates/layout.mustache", line: 3, column: 7, reason: "unclosed tag")
        #expect(error.description == "Templates/layout.mustache:3:7: unclosed tag")
    }

    @Test func errorsAfterSetDelimitersUseTheNewDelimiters() {
        let error = compileError("{{=<% %>=}}\n<%#list%>\n{{/list}}")
        #expect(error == MustacheError(file: "page", line: 2, column: 1, reason: "unclosed section 'list' opened here"))
    }
}
