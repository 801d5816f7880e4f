// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerJSON

/// A small JSON writer for the documents the server generates (the web app manifest, the
/// service worker's settings): objects keep their keys in the order written, and the
/// output is indented the way a person would write the file.
package indirect enum JSONDocument: Sendable {
    case string(String)
    case bool(Bool)
    case array([JSONDocument])
    case object([(String, JSONDocument)])

    /// The document as text; `indent` nil writes it on one line.
    package func text(indent: String? = "  ") -> String {
        var out = ""
        write(into: &out, level: 0, indent: indent)
        return out
    }

    private func write(into out: inout String, level: Int, indent: String?) {
        let newline = indent == nil ? "" : "\n"
        func pad(_ level: Int) -> String { indent.map { String(repeating: $0, count: level) } ?? "" }
        switch self {
        case .string(let text): out += JSONString.quoted(text)
        case .bool(let value): out += value ? "true" : "false"
        case .array(let items):
            // Short lists of strings stay on one line, as in a hand-written manifest.
            if items.allSatisfy({ if case .string = $0 { true } else { false } }) {
                out += "[" + items.map { $0.text(indent: nil) }.joined(separator: ", ") + "]"
                return
            }
            out += "[" + newline
            for (index, item) in items.enumerated() {
                out += pad(level + 1)
                item.write(into: &out, level: level + 1, indent: indent)
                out += (index < items.count - 1 ? "," : "") + newline
            }
            out += pad(level) + "]"
        case .object(let fields):
            out += "{" + newline
            for (index, (key, value)) in fields.enumerated() {
                out += pad(level + 1) + JSONString.quoted(key) + (indent == nil ? ":" : ": ")
                value.write(into: &out, level: level + 1, indent: indent)
                out += (index < fields.count - 1 ? "," : "") + newline
            }
            out += pad(level) + "}"
        }
    }
}
