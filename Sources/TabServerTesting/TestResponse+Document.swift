// SPDX-License-Identifier: Apache-2.0

extension TestResponse {
    /// The body parsed as HTML, to ask with CSS selectors what a check means rather than
    /// search the markup for a spelling. Parsed on each read: keep it in a `let` to ask
    /// several questions of one page.
    ///
    /// ```swift
    /// let page = await client.get("/tabs/list")
    /// let document = page.document
    /// #expect(try document.first("nav.tab-bar button[name=tab][aria-current=page]")?.attribute("value") == "list")
    /// #expect(try document.select("main li.row .row-title").map(\.text) == ["Milk", "Bread"])
    /// ```
    public var document: HTMLDocument { HTMLDocument(body) }
}
