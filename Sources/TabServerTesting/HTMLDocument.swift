// SPDX-License-Identifier: Apache-2.0

/// A page parsed into elements, to ask with CSS selectors what a test means instead of
/// searching the markup for a spelling: "the bar item marked current is Music" rather
/// than "the body contains `aria-current=\"page\"` somewhere".
///
/// The parser is tolerant and never fails: it reads the HTML a server writes (a doctype,
/// comments, void elements such as `<br>` and `<input>`, `script` and `style` content as
/// text, attributes quoted either way, unquoted or bare, `/>`, and the end tags HTML lets
/// a page leave out). An end tag closes the nearest open element of its name; one that
/// closes nothing is ignored. It is a reader for tests, not a browser's tree builder: it
/// never moves elements (a `<div>` inside a `<table>` stays where it is written).
///
/// Selectors: `nav`, `*`, `.class`, `#id`, `[attr]`, `[attr=value]` (value quoted or
/// not), `[attr^=value]`, `[attr$=value]`, `[attr*=value]`, `[attr~=value]` (add ` i`
/// before `]` to ignore case), compounds of these (`a.row[href^="/tabs/"]`), descendant
/// (`nav a`) and child (`ul > li`) combinators, and lists (`h1, h2`). A selector outside
/// that set throws `HTMLSelectorError` rather than matching nothing.
///
/// ```swift
/// let page = await client.get("/tabs/music")
/// let document = page.document
/// let current = try document.first("nav.tab-bar button[name=tab][aria-current=page]")
/// #expect(current?.attribute("value") == "music")
/// #expect(try document.select("nav.tab-bar button[name=tab]").count == 7)
/// #expect(document.title == "Music · TabServer Store")
/// ```
public struct HTMLDocument: Sendable {
    /// What the doctype names (`html` for `<!doctype html>`), or nil without one.
    public let doctype: String?
    /// The nodes at the top level (for a whole page, the `html` element and what
    /// surrounds it).
    public let nodes: [HTMLNode]

    /// Parses `html`: a whole page or a fragment of one.
    public init(_ html: String) {
        let parsed = HTMLParser.parse(html)
        doctype = parsed.doctype
        nodes = parsed.nodes
    }

    /// The elements at the top level.
    public var children: [HTMLElement] { nodes.compactMap(\.element) }

    /// All the text of the document, collapsed like `HTMLElement.text` (scripts and
    /// styles left out).
    public var text: String { HTMLElement.collapsingWhitespace(HTMLElement.rawText(of: nodes)) }

    /// The text of the first `title` element, or nil without one.
    public var title: String? {
        var found: HTMLElement?
        func search(_ elements: [HTMLElement]) {
            for element in elements where found == nil {
                if element.name == "title" {
                    found = element
                } else {
                    search(element.children)
                }
            }
        }
        search(children)
        return found?.text
    }

    /// The elements `selector` matches, in document order, each once.
    ///
    /// - Throws: `HTMLSelectorError` when `selector` is not one this type reads, so a
    ///   check that expects nothing cannot pass because of a typo.
    public func select(_ selector: String) throws(HTMLSelectorError) -> [HTMLElement] {
        try HTMLSelector(parsing: selector).select(in: children)
    }

    /// The first element in document order that `selector` matches, or nil.
    ///
    /// - Throws: `HTMLSelectorError` when `selector` is not one this type reads.
    public func first(_ selector: String) throws(HTMLSelectorError) -> HTMLElement? {
        try select(selector).first
    }
}
