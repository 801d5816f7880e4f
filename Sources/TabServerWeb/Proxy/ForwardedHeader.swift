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

    /// Parameters read per element (`for`, `proto`, `host`, `by` are all there are).
    static let parameterLimit = 8
    /// Longer parameters are skipped (a host name is at most 253 bytes).
    static let longestParameter = 512

    /// nil when there is no `Forwarded` header at all. Only the last `limit` elements, the
    /// hops nearest this server, are read: a longer list costs no more than that.
    init?(_ values: [String], lastElements limit: Int) {
        guard !values.isEmpty else { return nil }
        var nearestFirst: [Element] = []
        reading: for value in values.reversed() {
            var rest = value[...]
            while !rest.isEmpty {
                guard nearestFirst.count < limit else { break reading }
                if let comma = rest.utf8.lastIndex(of: UInt8(ascii: ",")) {
                    nearestFirst.append(Self.element(rest[rest.utf8.index(after: comma)...]))
                    rest = rest[..<comma]
                } else {
                    nearestFirst.append(Self.element(rest))
                    rest = rest[rest.startIndex..<rest.startIndex]
                }
            }
        }
        elements = nearestFirst.reversed()
    }

    /// One element: `for=…;proto=…;host=…`. Works on the bytes in place: only the
    /// values it keeps become strings.
    private static func element(_ item: Substring) -> Element {
        var element = Element()
        var rest = item
        var read = 0
        while read < parameterLimit, !rest.isEmpty {
            read += 1
            let end = rest.utf8.firstIndex(of: UInt8(ascii: ";")) ?? rest.endIndex
            let pair = rest[..<end]
            rest = end < rest.endIndex ? rest[rest.utf8.index(after: end)...] : rest[rest.endIndex...]
            guard pair.utf8.count <= longestParameter, let equals = pair.utf8.firstIndex(of: UInt8(ascii: "="))
            else { continue }
            let name = pair[..<equals].trimmingASCIISpaces()
            var raw = pair[pair.utf8.index(after: equals)...].trimmingASCIISpaces()
            if raw.utf8.count >= 2 && raw.utf8.first == UInt8(ascii: "\"") && raw.utf8.last == UInt8(ascii: "\"") {
                raw = raw.dropFirst().dropLast()
            }
            if isName(name, "for") {
                element.for = address(raw)
            } else if isName(name, "proto") {
                element.proto = raw.lowercased()
            } else if isName(name, "host") {
                element.host = String(raw)
            }
        }
        return element
    }

    /// Whether `name` is `lowercase` in any case (`lowercase` holds only a–z).
    private static func isName(_ name: Substring, _ lowercase: StaticString) -> Bool {
        let expected = UnsafeBufferPointer(start: lowercase.utf8Start, count: lowercase.utf8CodeUnitCount)
        return name.utf8.elementsEqual(expected) { ($0 | 0x20) == $1 }
    }

    /// `for=192.0.2.1:8080` → "192.0.2.1"; `for="[2001:db8::1]:443"` → "2001:db8::1";
    /// obfuscated identifiers ("_hidden", "unknown") stay as they are.
    static func address(_ text: Substring) -> String {
        if text.hasPrefix("[") {
            if let close = text.firstIndex(of: "]") { return String(text[text.index(after: text.startIndex)..<close]) }
            return String(text)
        }
        let colons = text.utf8.lazy.filter { $0 == UInt8(ascii: ":") }.count
        if colons == 1, let colon = text.firstIndex(of: ":") {
            return String(text[..<colon])
        }
        return String(text)
    }
}
