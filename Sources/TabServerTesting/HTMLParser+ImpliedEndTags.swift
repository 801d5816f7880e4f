// SPDX-License-Identifier: Apache-2.0

/// The end tags HTML lets a page leave out, implied by the start tag that follows: a new
/// `<li>` ends the item before it, a `<div>` ends an open `<p>`, a `<td>` ends the cell
/// before it. A short table of HTML5's rules rather than all of them: lists, paragraphs,
/// table rows and cells, options.
extension HTMLParser {
    /// What a start tag closes: the innermost run of open elements up to the outermost
    /// one named in `closes`, searching outwards no further than one named in `boundaries`.
    struct ImpliedEnd {
        let closes: Set<String>
        let boundaries: Set<String>
    }

    /// Elements inside which a start tag never closes a paragraph further out.
    private static let paragraphScope: Set<String> = ["button", "caption", "object", "table", "td", "template", "th"]

    /// Start tags that end an open paragraph.
    private static let paragraphEnders: Set<String> = [
        "address", "article", "aside", "blockquote", "details", "dialog", "div", "dl", "fieldset", "figcaption",
        "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "main", "menu",
        "nav", "ol", "p", "pre", "search", "section", "table", "ul",
    ]

    static func impliedEnd(byStartOf name: String) -> ImpliedEnd? {
        switch name {
        case "li":
            ImpliedEnd(closes: ["li", "p"], boundaries: paragraphScope.union(["menu", "ol", "ul"]))
        case "dt", "dd":
            ImpliedEnd(closes: ["dd", "dt", "p"], boundaries: paragraphScope.union(["dl"]))
        case "option":
            ImpliedEnd(closes: ["option"], boundaries: ["datalist", "optgroup", "select"])
        case "optgroup":
            ImpliedEnd(closes: ["optgroup", "option"], boundaries: ["select"])
        case "tr":
            ImpliedEnd(closes: ["td", "th", "tr"], boundaries: ["table", "tbody", "tfoot", "thead"])
        case "td", "th":
            ImpliedEnd(closes: ["td", "th"], boundaries: ["table", "tr"])
        case "thead", "tbody", "tfoot":
            ImpliedEnd(closes: ["tbody", "td", "tfoot", "th", "thead", "tr"], boundaries: ["table"])
        case _ where paragraphEnders.contains(name):
            ImpliedEnd(closes: ["p"], boundaries: paragraphScope)
        default:
            nil
        }
    }

    /// Closes what the start tag `name` implies is closed, before it opens.
    mutating func closeElementsImplied(byStartOf name: String) {
        guard let rule = Self.impliedEnd(byStartOf: name) else { return }
        let names = openNames
        var outermost: Int?
        for position in names.indices.reversed() {
            if rule.boundaries.contains(names[position]) { break }
            if rule.closes.contains(names[position]) { outermost = position }
        }
        guard let outermost else { return }
        for _ in outermost..<names.count { closeInnermost() }
    }
}
