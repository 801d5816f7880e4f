// SPDX-License-Identifier: Apache-2.0

/// Reading a selector list, one Unicode scalar at a time, into an `HTMLSelector`; any
/// text outside the supported subset throws `HTMLSelectorError` naming where.
extension HTMLSelector {
    /// Parses `text`, or throws saying where and why it cannot.
    init(parsing text: String) throws(HTMLSelectorError) {
        var reader = SelectorReader(text)
        alternatives = try reader.readList()
    }
}

/// The reading position in a selector and the grammar, one method per production.
private struct SelectorReader {
    let text: String
    let scalars: [Unicode.Scalar]
    var index = 0

    init(_ text: String) {
        self.text = text
        scalars = Array(text.unicodeScalars)
    }

    var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    /// The error for what is wrong at the current position.
    func failure(_ reason: String) -> HTMLSelectorError {
        HTMLSelectorError(selector: text, position: index, reason: reason)
    }

    /// What the scalar at the current position is, for a message: `'x'` or `the end`.
    var found: String { current.map { "'\($0)'" } ?? "the end" }

    /// Skips whitespace; says whether there was any.
    @discardableResult
    mutating func skipWhitespace() -> Bool {
        let start = index
        while let scalar = current, HTMLElement.isHTMLWhitespace(scalar) { index += 1 }
        return index > start
    }

    /// `complex (, complex)*`
    mutating func readList() throws(HTMLSelectorError) -> [HTMLSelector.Complex] {
        skipWhitespace()
        guard current != nil else { throw failure("the selector is empty") }
        var list: [HTMLSelector.Complex] = []
        while true {
            list.append(try readComplex())
            guard current != nil else { return list }
            // readComplex returns only at the end or at a comma.
            index += 1
            skipWhitespace()
            guard current != nil else { throw failure("expected a selector after ','") }
        }
    }

    /// `compound (combinator compound)*`, ending at the end or before a comma.
    mutating func readComplex() throws(HTMLSelectorError) -> HTMLSelector.Complex {
        guard let first = try readCompound() else { throw failure("expected a selector, found \(found)") }
        var rest: [(combinator: HTMLSelector.Combinator, compound: HTMLSelector.Compound)] = []
        while true {
            let spaced = skipWhitespace()
            guard let scalar = current, scalar != "," else { break }
            let combinator: HTMLSelector.Combinator
            switch scalar {
            case ">":
                index += 1
                skipWhitespace()
                combinator = .child
            case "+", "~":
                throw failure("the '\(scalar)' combinator is not supported (only descendant ' ' and child '>')")
            default:
                guard spaced else { throw failure("unexpected \(found)") }
                combinator = .descendant
            }
            guard let compound = try readCompound() else {
                let after = combinator == .child ? " after '>'" : ""
                throw failure("expected a selector\(after), found \(found)")
            }
            rest.append((combinator, compound))
        }
        return HTMLSelector.Complex(first: first, rest: rest)
    }

    /// `(name | *)? (.class | #id | [attribute])*`, or nil when nothing of one is here.
    mutating func readCompound() throws(HTMLSelectorError) -> HTMLSelector.Compound? {
        let start = index
        var compound = HTMLSelector.Compound()
        if current == "*" {
            index += 1
        } else if let scalar = current, Self.startsName(scalar) {
            compound.name = HTMLParser.lowercasedASCII(try readName(what: "an element name"))
        }
        loop: while let scalar = current {
            switch scalar {
            case ".":
                index += 1
                compound.classes.append(try readName(what: "a class name after '.'", digitFirst: true))
            case "#":
                index += 1
                compound.ids.append(try readName(what: "an id after '#'", digitFirst: true))
            case "[":
                index += 1
                compound.attributeTests.append(try readAttributeTest())
            case ":":
                throw failure("pseudo-classes and pseudo-elements (':') are not supported")
            case "|":
                throw failure("namespaces ('|') are not supported")
            default:
                break loop
            }
        }
        return index > start ? compound : nil
    }

    /// `name`, `name op value` and an optional ` i` or ` s`, after `[` and through `]`.
    mutating func readAttributeTest() throws(HTMLSelectorError) -> HTMLSelector.AttributeTest {
        skipWhitespace()
        let name = HTMLParser.lowercasedASCII(try readName(what: "an attribute name after '['"))
        skipWhitespace()
        let operation: HTMLSelector.AttributeTest.Operation
        switch current {
        case "]":
            index += 1
            return HTMLSelector.AttributeTest(name: name, operation: .exists, value: "", ignoresCase: false)
        case "=": operation = .equals
        case "^": operation = .prefix
        case "$": operation = .suffix
        case "*": operation = .contains
        case "~": operation = .word
        case "|": throw failure("'|=' is not supported")
        default: throw failure("expected ']', '=', '^=', '$=', '*=' or '~=' after the attribute name, found \(found)")
        }
        if operation != .equals {
            index += 1
            guard current == "=" else { throw failure("expected '=', found \(found)") }
        }
        index += 1
        skipWhitespace()
        let value: String
        if current == "\"" || current == "'" {
            value = try readString()
        } else {
            value = try readName(what: "a value (a name, or text in quotes)", digitFirst: true)
        }
        skipWhitespace()
        var ignoresCase = false
        if let flag = current, "iIsS".unicodeScalars.contains(flag) {
            ignoresCase = flag == "i" || flag == "I"
            index += 1
            skipWhitespace()
        }
        guard current == "]" else { throw failure("expected ']', found \(found)") }
        index += 1
        return HTMLSelector.AttributeTest(name: name, operation: operation, value: value, ignoresCase: ignoresCase)
    }

    /// A string in double or single quotes; `\` escapes as in CSS.
    mutating func readString() throws(HTMLSelectorError) -> String {
        let opening = index
        let quote = scalars[index]
        index += 1
        var value = String.UnicodeScalarView()
        while let scalar = current {
            if scalar == quote {
                index += 1
                return String(value)
            }
            if scalar == "\\" {
                value.append(try readEscape())
            } else {
                value.append(scalar)
                index += 1
            }
        }
        throw failure("the string opened at \(opening) is not closed")
    }

    /// A CSS name: letters, digits, `-`, `_`, anything past ASCII and escapes; a digit
    /// may start one for a class, an id or a value (lenient: `#1a`), not for an
    /// element or attribute name.
    mutating func readName(what: String, digitFirst: Bool = false) throws(HTMLSelectorError) -> String {
        var name = String.UnicodeScalarView()
        if let scalar = current, !digitFirst, ("0"..."9").contains(scalar) {
            throw failure("expected \(what), found \(found) (a name cannot start with a digit)")
        }
        while let scalar = current {
            if scalar == "\\" {
                name.append(try readEscape())
            } else if Self.continuesName(scalar) {
                name.append(scalar)
                index += 1
            } else {
                break
            }
        }
        guard !name.isEmpty else { throw failure("expected \(what), found \(found)") }
        return String(name)
    }

    /// After `\`: up to six hexadecimal digits and one optional space, or the next scalar itself.
    mutating func readEscape() throws(HTMLSelectorError) -> Unicode.Scalar {
        index += 1
        guard let scalar = current, scalar != "\n" else { throw failure("'\\' escapes nothing") }
        var value: UInt32 = 0
        var digits = 0
        while digits < 6, let digit = current, digit.isASCII, let digitValue = UInt32(String(digit), radix: 16) {
            value = value * 16 + digitValue
            digits += 1
            index += 1
        }
        guard digits > 0 else {
            index += 1
            return scalar
        }
        if let space = current, HTMLElement.isHTMLWhitespace(space) { index += 1 }
        return value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    static func startsName(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || scalar == "_" || scalar == "-"
            || scalar == "\\" || !scalar.isASCII
    }

    /// Whether `scalar` can be part of a name (an escape's `\\` is read apart).
    static func continuesName(_ scalar: Unicode.Scalar) -> Bool {
        (startsName(scalar) && scalar != "\\") || ("0"..."9").contains(scalar)
    }
}
