// SPDX-License-Identifier: Apache-2.0

/// An element of a parsed page (`HTMLDocument`): its name, its attributes in the order
/// written, and what is inside it.
///
/// Ask it about what it means rather than how it is spelled: its attributes by name,
/// its classes as a list, its text with whitespace collapsed, and the elements inside it
/// by CSS selector.
///
/// ```swift
/// let bar = try #require(try page.document.first("nav.tab-bar"))
/// let selected = try bar.first("button[name=tab][aria-current=page]")
/// #expect(selected?.attribute("value") == "music")
/// #expect(selected?.classes.contains("is-selected") == true)
/// ```
public struct HTMLElement: Sendable {
    /// One attribute as written: its name lowercased, its value decoded (`""` for a
    /// boolean attribute such as `disabled`).
    public struct Attribute: Sendable, Hashable {
        /// The name, lowercased (`aria-current`).
        public let name: String
        /// The value, character references decoded.
        public let value: String
    }

    /// The tag name, lowercased (`nav`, `button`).
    public let name: String
    /// The attributes in the order written; of a name written twice, the first.
    public let attributes: [Attribute]
    /// What is inside, in order: elements, text and comments.
    public let nodes: [HTMLNode]
    /// Where the element starts in its document, counted in elements (its place in a
    /// depth-first walk): what makes two copies the same element and orders query results.
    let position: Int
    /// The position of the last element inside this one (its own when it has none): the
    /// elements inside are exactly those from `position + 1` through this.
    let lastDescendantPosition: Int

    init(name: String, attributes: [Attribute], nodes: [HTMLNode], position: Int, lastDescendantPosition: Int) {
        self.name = name
        self.attributes = attributes
        self.nodes = nodes
        self.position = position
        self.lastDescendantPosition = lastDescendantPosition
    }

    /// The value of the attribute named `name` (any case), or nil when the element has
    /// none; a boolean attribute's value is `""`.
    public func attribute(_ name: String) -> String? {
        let wanted = HTMLParser.lowercasedASCII(name)
        return attributes.first { $0.name == wanted }?.value
    }

    /// Whether the element has the attribute named `name` (any case).
    public func hasAttribute(_ name: String) -> Bool { attribute(name) != nil }

    /// The words of the `class` attribute, in order (empty without one).
    public var classes: [String] {
        guard let value = attribute("class") else { return [] }
        return HTMLElement.words(value)
    }

    /// The elements directly inside, in order.
    public var children: [HTMLElement] { nodes.compactMap(\.element) }

    /// All the text inside, as a reader sees it: character references decoded, runs of
    /// whitespace collapsed to one space, trimmed. The content of `script` and `style`
    /// elements inside is left out (a `script`'s own `text` is its source).
    public var text: String { HTMLElement.collapsingWhitespace(HTMLElement.rawText(of: nodes)) }

    /// The text directly inside, not inside child elements, collapsed and trimmed like `text`.
    public var ownText: String {
        var raw = ""
        for case .text(let piece) in nodes { raw += piece }
        return HTMLElement.collapsingWhitespace(raw)
    }

    /// The elements inside this one that `selector` matches, in document order. Every
    /// element the selector names lies inside this one: `section.select("nav a")` finds
    /// links in a `nav` inside the section.
    ///
    /// - Throws: `HTMLSelectorError` when `selector` is not one this type reads, so a
    ///   check that expects nothing cannot pass because of a typo.
    public func select(_ selector: String) throws(HTMLSelectorError) -> [HTMLElement] {
        try HTMLSelector(parsing: selector).select(in: children)
    }

    /// The first element inside this one that `selector` matches, or nil.
    ///
    /// - Throws: `HTMLSelectorError` when `selector` is not one this type reads.
    public func first(_ selector: String) throws(HTMLSelectorError) -> HTMLElement? {
        try select(selector).first
    }
}

extension HTMLElement: CustomStringConvertible {
    /// The start tag, written again from the parsed attributes (`<button name="tab" value="music">`):
    /// what a failed check prints.
    public var description: String {
        var tag = "<" + name
        for attribute in attributes {
            tag += " " + attribute.name
            guard !attribute.value.isEmpty else { continue }
            var escaped = ""
            for character in attribute.value {
                switch character {
                case "&": escaped += "&amp;"
                case "\"": escaped += "&quot;"
                default: escaped.append(character)
                }
            }
            tag += "=\"" + escaped + "\""
        }
        return tag + ">"
    }
}

extension HTMLElement {
    /// Elements whose content is their source, not text a reader sees.
    static let rawTextElements: Set<String> = ["script", "style"]

    /// The text of `nodes`, uncollapsed, leaving out the content of scripts and styles
    /// among them (a script's own nodes are its source, and are kept).
    static func rawText(of nodes: [HTMLNode]) -> String {
        var text = ""
        func gather(_ nodes: [HTMLNode]) {
            for node in nodes {
                switch node {
                case .text(let piece): text += piece
                case .element(let element) where !rawTextElements.contains(element.name): gather(element.nodes)
                case .element, .comment: break
                }
            }
        }
        gather(nodes)
        return text
    }

    /// Whether `scalar` is whitespace as HTML counts it (space, tab, line feed, form feed,
    /// carriage return; not a no-break space).
    static func isHTMLWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "\t", "\n", "\r", "\u{0C}": true
        default: false
        }
    }

    /// `text` with each run of HTML whitespace made one space, and none at either end.
    static func collapsingWhitespace(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            if isHTMLWhitespace(scalar) {
                pendingSpace = !result.isEmpty
                continue
            }
            if pendingSpace {
                result.append(" ")
                pendingSpace = false
            }
            result.append(scalar)
        }
        return String(result)
    }

    /// The whitespace-separated words of an attribute value (`class`, `rel`).
    static func words(_ value: String) -> [String] {
        value.split { $0.unicodeScalars.allSatisfy(isHTMLWhitespace) }.map(String.init)
    }
}
