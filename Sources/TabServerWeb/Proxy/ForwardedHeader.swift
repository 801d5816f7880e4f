// SPDX-License-Identifier: Apache-2.0
/// The RFC 7239 `Forwarded` header: one element per proxy hop, each with optional
/// `for`, `proto` and `host` parameters. Malformed parts are skipped.
struct ForwardedHeader {
    struct Element {
        var `for`: String?
        var proto: String?
        var host: String?
    }

    let elements: [Element]

    /// nil when there is no `Forwarded` header at all.
    init?(_ values: [String]) {
        guard !values.isEmpty else { return nil }
        var elements: [Element] = []
        for value in values {
            for item in value.split(separator: ",") {
                var element = Element()
                for pair in item.split(separator: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    let name = pair[..<equals].filter { $0 != " " }.lowercased()
                    var raw = Substring(pair[pair.index(after: equals)...].filter { $0 != " " })
                    if raw.hasPrefix("\"") && raw.hasSuffix("\"") && raw.count >= 2 { raw = raw.dropFirst().dropLast() }
                    let text = String(raw)
                    switch name {
                    case "for": element.for = Self.address(text)
                    case "proto": element.proto = text.lowercased()
                    case "host": element.host = text
                    default: break
                    }
                }
                elements.append(element)
            }
        }
        self.elements = elements
    }

    /// `for=192.0.2.1:8080` → "192.0.2.1"; `for="[2001:db8::1]:443"` → "2001:db8::1";
    /// obfuscated identifiers ("_hidden", "unknown") stay as they are.
    static func address(_ text: String) -> String {
        if text.hasPrefix("[") {
            if let close = text.firstIndex(of: "]") { return String(text[text.index(after: text.startIndex)..<close]) }
            return text
        }
        if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            return String(text[..<colon])
        }
        return text
    }
}
