// SPDX-License-Identifier: Apache-2.0

/// Builds an `HTMLDocument`'s nodes from a page's text in one pass over its UTF-8 bytes:
/// markup is found by looking at the byte after each `<`, elements are kept on a stack
/// while open, and each becomes an `HTMLElement` when it closes.
///
/// Leniency, in place of HTML5's full tree construction: an end tag closes the nearest
/// open element of its name and everything opened after it; an end tag that matches
/// nothing is dropped; `/>` closes any element (as in SVG); the end tags HTML lets a page
/// leave out (`</li>`, `</p>`, `</td>`, …) are implied by the start tags that imply them
/// (see `HTMLParser+ImpliedEndTags.swift`); whatever is open at the end is closed.
struct HTMLParser {
    /// An element whose end tag has not been read yet.
    private struct OpenElement {
        let name: String
        let attributes: [HTMLElement.Attribute]
        let position: Int
        var nodes: [HTMLNode] = []
    }

    /// Elements that never have content or an end tag.
    static let voidElements: Set<String> = [
        "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr",
    ]
    /// Elements whose content is text up to their end tag, with character references
    /// decoded (`<title>a < b</title>` is text).
    static let escapableRawTextElements: Set<String> = ["title", "textarea"]

    private let bytes: [UInt8]
    private var index = 0
    private var open: [OpenElement] = []
    private var topLevel: [HTMLNode] = []
    private var doctype: String?
    private var nextPosition = 0

    private init(_ text: String) { bytes = Array(text.utf8) }

    /// The doctype and top-level nodes of `text`.
    static func parse(_ text: String) -> (doctype: String?, nodes: [HTMLNode]) {
        var parser = HTMLParser(text)
        parser.run()
        return (parser.doctype, parser.topLevel)
    }

    private mutating func run() {
        var textStart = 0
        while let markup = nextMarkup() {
            appendText(bytes[textStart..<markup], decoded: true)
            index = markup
            readMarkup()
            textStart = index
        }
        appendText(bytes[textStart...], decoded: true)
        while !open.isEmpty { closeInnermost() }
    }

    // MARK: Reading markup

    /// The offset of the next `<` from `index` on that starts markup (a tag, an end tag,
    /// a comment, a doctype): `<` before anything else is text (`a < b`).
    private func nextMarkup() -> Int? {
        var at = index
        while at + 1 < bytes.count {
            if bytes[at] == UInt8(ascii: "<") {
                let next = bytes[at + 1]
                if Self.isASCIILetter(next) || next == UInt8(ascii: "/") || next == UInt8(ascii: "!")
                    || next == UInt8(ascii: "?")
                {
                    return at
                }
            }
            at += 1
        }
        return nil
    }

    /// Reads the markup at `index` (a `<` that `nextMarkup` found) and moves past it.
    private mutating func readMarkup() {
        let next = bytes[index + 1]
        if next == UInt8(ascii: "!") {
            index += 2
            if starts(with: "--") {
                readComment()
            } else if starts(with: "doctype", ignoringCase: true) {
                index += 7
                let content = readUntil(">")
                doctype = HTMLElement.collapsingWhitespace(Self.lowercasedASCII(content))
            } else {
                append(.comment(String(decoding: readUntil(">"), as: UTF8.self)))
            }
        } else if next == UInt8(ascii: "?") {
            index += 1
            append(.comment(String(decoding: readUntil(">"), as: UTF8.self)))
        } else if next == UInt8(ascii: "/") {
            index += 2
            if index < bytes.count, Self.isASCIILetter(bytes[index]) {
                readEndTag()
            } else if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
                index += 1  // `</>` is nothing
            } else {
                append(.comment(String(decoding: readUntil(">"), as: UTF8.self)))
            }
        } else {
            index += 1
            readStartTag()
        }
    }

    /// A comment from just after `<!`: `<!---->`, and `<!-->` and `<!--->` as empty ones.
    private mutating func readComment() {
        index += 2
        if starts(with: ">") {
            index += 1
            append(.comment(""))
        } else if starts(with: "->") {
            index += 2
            append(.comment(""))
        } else {
            let start = index
            let end = find("-->") ?? bytes.count
            append(.comment(String(decoding: bytes[start..<end], as: UTF8.self)))
            index = min(end + 3, bytes.count)
        }
    }

    /// An end tag from its name on: closes the nearest open element of that name.
    private mutating func readEndTag() {
        let name = readTagName()
        _ = readUntil(">")
        guard let match = open.lastIndex(where: { $0.name == name }) else { return }
        while open.count > match { closeInnermost() }
    }

    /// A start tag from its name on, then, for `script`, `style`, `title` and
    /// `textarea`, its content as text.
    private mutating func readStartTag() {
        let name = readTagName()
        var attributes: [HTMLElement.Attribute] = []
        var selfClosing = false
        while true {
            skipWhitespace()
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte == UInt8(ascii: ">") {
                index += 1
                break
            }
            if byte == UInt8(ascii: "/") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: ">") {
                    selfClosing = true
                    index += 1
                    break
                }
                continue
            }
            let attribute = readAttribute()
            if !attributes.contains(where: { $0.name == attribute.name }) { attributes.append(attribute) }
        }
        openElement(name, attributes: attributes, selfClosing: selfClosing)
        guard !selfClosing else { return }
        if HTMLElement.rawTextElements.contains(name) {
            readTextContent(of: name, decoded: false)
        } else if Self.escapableRawTextElements.contains(name) {
            readTextContent(of: name, decoded: true)
        }
    }

    /// One attribute: `name`, `name=value`, `name="value"` or `name='value'`.
    private mutating func readAttribute() -> HTMLElement.Attribute {
        let nameStart = index
        index += 1  // the first byte belongs to the name whatever it is (even `=`)
        while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: "/"),
            bytes[index] != UInt8(ascii: ">"), bytes[index] != UInt8(ascii: "=")
        {
            index += 1
        }
        let name = Self.lowercasedASCII(bytes[nameStart..<index])
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else {
            return HTMLElement.Attribute(name: name, value: "")
        }
        index += 1
        skipWhitespace()
        guard index < bytes.count else { return HTMLElement.Attribute(name: name, value: "") }
        let quote = bytes[index]
        let value: ArraySlice<UInt8>
        if quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") {
            index += 1
            let start = index
            while index < bytes.count, bytes[index] != quote { index += 1 }
            value = bytes[start..<index]
            index = min(index + 1, bytes.count)
        } else {
            let start = index
            while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: ">") {
                index += 1
            }
            value = bytes[start..<index]
        }
        return HTMLElement.Attribute(name: name, value: Self.decodingCharacterReferences(value))
    }

    /// The content of a `script`, `style`, `title` or `textarea` up to its end tag (which
    /// the main loop then reads), as one text node; `<` inside is text.
    private mutating func readTextContent(of name: String, decoded: Bool) {
        let start = index
        var at = index
        while let candidate = find("</", from: at) {
            let nameEnd = candidate + 2 + name.utf8.count
            let after = nameEnd < bytes.count ? bytes[nameEnd] : UInt8(ascii: ">")
            if nameEnd <= bytes.count, Self.lowercasedASCII(bytes[(candidate + 2)..<nameEnd]) == name,
                Self.isWhitespace(after) || after == UInt8(ascii: ">") || after == UInt8(ascii: "/")
            {
                appendText(bytes[start..<candidate], decoded: decoded)
                index = candidate
                return
            }
            at = candidate + 2
        }
        appendText(bytes[start...], decoded: decoded)
        index = bytes.count
    }

    // MARK: Building the tree

    private mutating func openElement(_ name: String, attributes: [HTMLElement.Attribute], selfClosing: Bool) {
        closeElementsImplied(byStartOf: name)
        let position = nextPosition
        nextPosition += 1
        if selfClosing || Self.voidElements.contains(name) {
            append(
                .element(
                    HTMLElement(
                        name: name, attributes: attributes, nodes: [], position: position,
                        lastDescendantPosition: position)))
        } else {
            open.append(OpenElement(name: name, attributes: attributes, position: position))
        }
    }

    /// Closes the innermost open element: it becomes a node of the one around it.
    mutating func closeInnermost() {
        let closed = open.removeLast()
        append(
            .element(
                HTMLElement(
                    name: closed.name, attributes: closed.attributes, nodes: closed.nodes, position: closed.position,
                    lastDescendantPosition: nextPosition - 1)))
    }

    /// The names of the open elements, outermost first.
    var openNames: [String] { open.map(\.name) }

    private mutating func append(_ node: HTMLNode) {
        if open.isEmpty {
            topLevel.append(node)
        } else {
            open[open.count - 1].nodes.append(node)
        }
    }

    /// Adds text to the innermost open element, joined to text just before it.
    private mutating func appendText(_ raw: ArraySlice<UInt8>, decoded: Bool) {
        guard !raw.isEmpty else { return }
        let text = decoded ? Self.decodingCharacterReferences(raw) : String(decoding: raw, as: UTF8.self)
        if open.isEmpty {
            if case .text(let before) = topLevel.last {
                topLevel[topLevel.count - 1] = .text(before + text)
            } else {
                topLevel.append(.text(text))
            }
        } else if case .text(let before) = open[open.count - 1].nodes.last {
            open[open.count - 1].nodes[open[open.count - 1].nodes.count - 1] = .text(before + text)
        } else {
            open[open.count - 1].nodes.append(.text(text))
        }
    }

    // MARK: Bytes

    private mutating func readTagName() -> String {
        let start = index
        while index < bytes.count, !Self.isWhitespace(bytes[index]), bytes[index] != UInt8(ascii: "/"),
            bytes[index] != UInt8(ascii: ">")
        {
            index += 1
        }
        return Self.lowercasedASCII(bytes[start..<index])
    }

    /// The bytes up to the next `terminator` (or the end), moving past the terminator.
    private mutating func readUntil(_ terminator: Character) -> ArraySlice<UInt8> {
        let start = index
        let byte = terminator.asciiValue ?? 0
        while index < bytes.count, bytes[index] != byte { index += 1 }
        defer { index = min(index + 1, bytes.count) }
        return bytes[start..<index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count, Self.isWhitespace(bytes[index]) { index += 1 }
    }

    private func starts(with text: String, ignoringCase: Bool = false) -> Bool {
        let wanted = Array(text.utf8)
        guard index + wanted.count <= bytes.count else { return false }
        let here = bytes[index..<(index + wanted.count)]
        return ignoringCase ? Self.lowercasedASCII(here) == text : here.elementsEqual(wanted)
    }

    /// The offset of the next occurrence of `text` from `start` (`index` by default).
    private func find(_ text: String, from start: Int? = nil) -> Int? {
        let wanted = Array(text.utf8)
        var at = start ?? index
        while at + wanted.count <= bytes.count {
            if bytes[at] == wanted[0], bytes[at..<(at + wanted.count)].elementsEqual(wanted) { return at }
            at += 1
        }
        return nil
    }

    static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }

    static func isASCIILetter(_ byte: UInt8) -> Bool {
        let lower = byte | 0x20
        return lower >= UInt8(ascii: "a") && lower <= UInt8(ascii: "z")
    }

    static func isASCIIUppercase(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") }

    static func lowercasedASCII(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(where: isASCIIUppercase) else { return String(decoding: bytes, as: UTF8.self) }
        return String(decoding: bytes.map { isASCIIUppercase($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    static func lowercasedASCII(_ text: String) -> String {
        guard text.utf8.contains(where: isASCIIUppercase) else { return text }
        return String(decoding: text.utf8.map { isASCIIUppercase($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
