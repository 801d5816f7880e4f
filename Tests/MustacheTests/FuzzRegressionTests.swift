// SPDX-License-Identifier: Apache-2.0
import TabServerMustache
import Testing

/// Inputs scripts/fuzz.sh found; each once crashed the compiler of templates.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    @Test(
        "a sigil equal to the closing delimiter is an error, not a crash",
        arguments: ["{{=% >=}}%>", "{{=% >=}}%#>", "{{=\n% >=}}<\u{0}' n%>", "{{=<% %>=}}<%>%>"])
    func sigilIsClosingDelimiter(source: String) {
        // Compiles or throws; either way no trap.
        _ = try? MustacheTemplate(source)
    }

    @Test("a tag with a sigil still closes where its delimiter is")
    func sigilStillCloses() throws {
        let template = try MustacheTemplate("{{=% >=}}%&name>!")
        #expect(template.render(["name": "<b>"]) == "<b>!")
    }
}
