// SPDX-License-Identifier: Apache-2.0

/// A `Content-Type` value taken apart: the media type, lowercased, and its parameters
/// (`multipart/form-data; boundary="a b"`).
public struct MediaType: Sendable, Hashable {
    /// `type/subtype`, lowercased, without parameters.
    public var essence: String
    /// Parameters in order, names lowercased, quoted values unquoted.
    public var parameters: [(name: String, value: String)]

    /// The media type of a header value (nil for an empty one). Parsed on its bytes: it
    /// runs for every request with a body, several times. A `;` inside a quoted value
    /// (`filename="a;b.jpg"`) belongs to the value, and a backslash in one escapes the
    /// quote or backslash after it (RFC 9110's quoted-pair; other backslashes, a Windows
    /// path's that a browser sends as they are, stay).
    public init?(_ value: String) {
        let bytes = Array(value.utf8)
        var parts: [Range<Int>] = []
        var start = 0
        var quoted = false
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: "\\") where quoted && Self.isEscape(bytes, at: index): index += 1
            case UInt8(ascii: ";") where !quoted:
                parts.append(start..<index)
                start = index + 1
            default: break
            }
            index += 1
        }
        parts.append(start..<bytes.count)
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
            while upper > lower, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
            return lower..<upper
        }
        func lowercased(_ range: Range<Int>) -> String {
            var lower = Array(bytes[range])
            for index in lower.indices where lower[index] &- 65 < 26 { lower[index] |= 0x20 }
            return String(decoding: lower, as: UTF8.self)
        }
        let essence = trimmed(parts[0])
        guard !essence.isEmpty else { return nil }
        self.essence = lowercased(essence)
        parameters = parts.dropFirst().compactMap { part in
            let pair = trimmed(part)
            guard let equals = bytes[pair].firstIndex(of: UInt8(ascii: "=")) else { return nil }
            let name = lowercased(trimmed(pair.lowerBound..<equals))
            let text = trimmed(equals + 1..<pair.upperBound)
            if text.count >= 2, bytes[text.lowerBound] == UInt8(ascii: "\""),
                bytes[text.upperBound - 1] == UInt8(ascii: "\"")
            {
                return (name, Self.unescaped(Array(bytes[text.lowerBound + 1..<text.upperBound - 1])))
            }
            return (name, String(decoding: bytes[text], as: UTF8.self))
        }
    }

    /// Whether the backslash at `index` escapes the quote or backslash after it.
    private static func isEscape(_ bytes: [UInt8], at index: Int) -> Bool {
        index + 1 < bytes.count && (bytes[index + 1] == UInt8(ascii: "\"") || bytes[index + 1] == UInt8(ascii: "\\"))
    }

    /// A quoted value's text: each escaped quote or backslash without its backslash.
    private static func unescaped(_ bytes: [UInt8]) -> String {
        guard bytes.contains(UInt8(ascii: "\\")) else { return String(decoding: bytes, as: UTF8.self) }
        var text: [UInt8] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "\\") && isEscape(bytes, at: index) { index += 1 }
            text.append(bytes[index])
            index += 1
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The first parameter of that name (lowercase).
    public func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    public static func == (lhs: MediaType, rhs: MediaType) -> Bool {
        lhs.essence == rhs.essence && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(essence)
        for parameter in parameters {
            hasher.combine(parameter.name)
            hasher.combine(parameter.value)
        }
    }

    /// `application/x-www-form-urlencoded`.
    public static let urlEncodedForm = "application/x-www-form-urlencoded"
    /// `multipart/form-data`.
    public static let multipartForm = "multipart/form-data"
    /// `application/json`.
    public static let json = "application/json"
}
