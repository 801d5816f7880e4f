// SPDX-License-Identifier: Apache-2.0
import TabServerMustache
import Testing

/// Every case of the official spec files this engine supports, one test case each.
/// Skipped as a whole, with the reason shown, when the spec folder is absent.
@Suite(
    "Mustache spec",
    .enabled(
        if: SpecSuite.isAvailable,
        "spec folder not found: expected ../shared/mustache-spec next to the package, or MUSTACHE_SPEC_DIR"))
struct SpecTests {
    @Test("comments.json", arguments: SpecSuite.cases("comments"))
    func comments(_ test: SpecCase) throws { try check(test) }

    @Test("delimiters.json", arguments: SpecSuite.cases("delimiters"))
    func delimiters(_ test: SpecCase) throws { try check(test) }

    @Test("interpolation.json", arguments: SpecSuite.cases("interpolation"))
    func interpolation(_ test: SpecCase) throws { try check(test) }

    @Test("inverted.json", arguments: SpecSuite.cases("inverted"))
    func inverted(_ test: SpecCase) throws { try check(test) }

    @Test("partials.json", arguments: SpecSuite.cases("partials"))
    func partials(_ test: SpecCase) throws { try check(test) }

    @Test("sections.json", arguments: SpecSuite.cases("sections"))
    func sections(_ test: SpecCase) throws { try check(test) }

    @Test("~inheritance.json", arguments: SpecSuite.cases("~inheritance"))
    func inheritance(_ test: SpecCase) throws { try check(test) }

    // Unsupported optional modules: skipped by name, with the reason in the test report.

    @Test(
        "~lambdas.json",
        .disabled("lambdas are not supported: a MustacheValue holds data, never functions"))
    func lambdas() {}

    @Test(
        "~dynamic-names.json",
        .disabled("dynamic names ({{>*name}}) are not supported: partial names are fixed when a template compiles"))
    func dynamicNames() {}

    private func check(_ test: SpecCase) throws {
        if test.missing {
            Issue.record("\(test.name)")
            return
        }
        var library = MustacheLibrary()
        for (name, source) in test.partials {
            library.register(try MustacheTemplate(source, name: name), named: name)
        }
        let template = try MustacheTemplate(test.template, name: test.name)
        #expect(template.render(test.data, partials: library) == test.expected)
    }
}
