// SPDX-License-Identifier: Apache-2.0

/// One node of a parsed page: an element, a run of text, or a comment.
///
/// Text is decoded (`&amp;` is `&`) except inside `script` and `style`, whose content is
/// kept as written. Most tests never need nodes: `HTMLElement.text` and the selector
/// queries read them for you.
///
/// ```swift
/// let comments = document.nodes.filter { if case .comment = $0 { true } else { false } }
/// ```
public enum HTMLNode: Sendable {
    /// An element and everything inside it.
    case element(HTMLElement)
    /// Text as a reader sees it, character references decoded, whitespace as written.
    case text(String)
    /// The text of a comment (`<!-- … -->`), without its delimiters.
    case comment(String)

    /// The element, when this node is one.
    public var element: HTMLElement? {
        if case .element(let element) = self { element } else { nil }
    }
}
