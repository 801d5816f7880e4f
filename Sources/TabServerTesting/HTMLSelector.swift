// SPDX-License-Identifier: Apache-2.0

/// A parsed selector list (`HTMLSelector+Parsing.swift` reads one) and how it finds
/// elements: each complex selector is followed left to right, from every element its
/// first compound matches, down through the combinators, within the elements given.
struct HTMLSelector: Sendable {
    /// How one compound relates to the one before it.
    enum Combinator: Sendable {
        /// `a b`: anywhere inside.
        case descendant
        /// `a > b`: directly inside.
        case child
    }

    /// A test of one attribute, from `[…]`.
    struct AttributeTest: Sendable {
        enum Operation: Sendable {
            /// `[name]`
            case exists
            /// `[name=value]`
            case equals
            /// `[name^=value]`
            case prefix
            /// `[name$=value]`
            case suffix
            /// `[name*=value]`
            case contains
            /// `[name~=value]`: one of the whitespace-separated words.
            case word
        }

        let name: String
        let operation: Operation
        let value: String
        /// `[name=value i]`: values compared without regard to ASCII case.
        let ignoresCase: Bool

        func matches(_ element: HTMLElement) -> Bool {
            guard var actual = element.attribute(name) else { return false }
            var wanted = value
            if ignoresCase {
                actual = HTMLParser.lowercasedASCII(actual)
                wanted = HTMLParser.lowercasedASCII(wanted)
            }
            switch operation {
            case .exists: return true
            case .equals: return actual == wanted
            // As in CSS, an empty value for these matches nothing.
            case .prefix: return !wanted.isEmpty && actual.hasPrefix(wanted)
            case .suffix: return !wanted.isEmpty && actual.hasSuffix(wanted)
            case .contains: return !wanted.isEmpty && actual.contains(wanted)
            case .word: return HTMLElement.words(actual).contains(wanted)
            }
        }
    }

    /// Everything one element must be at once: `a.row#first[href]`.
    struct Compound: Sendable {
        /// The tag name, lowercased; nil for `*` or none written.
        var name: String?
        var ids: [String] = []
        var classes: [String] = []
        var attributeTests: [AttributeTest] = []

        func matches(_ element: HTMLElement) -> Bool {
            if let name, element.name != name { return false }
            if !ids.isEmpty {
                guard let id = element.attribute("id"), ids.allSatisfy({ $0 == id }) else { return false }
            }
            if !classes.isEmpty {
                let present = element.classes
                guard classes.allSatisfy(present.contains) else { return false }
            }
            return attributeTests.allSatisfy { $0.matches(element) }
        }
    }

    /// Compounds joined by combinators: `nav.tab-bar > ul li`.
    struct Complex: Sendable {
        let first: Compound
        let rest: [(combinator: Combinator, compound: Compound)]
    }

    /// The comma-separated alternatives.
    let alternatives: [Complex]

    /// The elements among `roots` and inside them that any alternative matches, in
    /// document order, each once.
    func select(in roots: [HTMLElement]) -> [HTMLElement] {
        var found: [HTMLElement] = []
        for complex in alternatives {
            found += Self.select(complex, in: roots)
        }
        guard alternatives.count > 1 else { return found }
        found.sort { $0.position < $1.position }
        var previous = -1
        return found.filter { element in
            defer { previous = element.position }
            return element.position != previous
        }
    }

    /// One complex selector's matches, in document order (every step keeps that order).
    private static func select(_ complex: Complex, in roots: [HTMLElement]) -> [HTMLElement] {
        var current: [HTMLElement] = []
        for root in roots { collect(root, matching: complex.first, into: &current) }
        for (combinator, compound) in complex.rest {
            var next: [HTMLElement] = []
            switch combinator {
            case .descendant:
                // An element inside one already searched adds nothing: its subtree was
                // searched too. What is left are subtrees apart, in order.
                var searchedThrough = -1
                for element in current where element.position > searchedThrough {
                    searchedThrough = element.lastDescendantPosition
                    for child in element.children { collect(child, matching: compound, into: &next) }
                }
            case .child:
                for element in current {
                    next += element.children.filter(compound.matches)
                }
                // Children of an element and of one inside it interleave.
                next.sort { $0.position < $1.position }
            }
            current = next
        }
        return current
    }

    /// `element` and everything inside it that `compound` matches, depth first.
    private static func collect(_ element: HTMLElement, matching compound: Compound, into found: inout [HTMLElement]) {
        if compound.matches(element) { found.append(element) }
        for child in element.children { collect(child, matching: compound, into: &found) }
    }
}
