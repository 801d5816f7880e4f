// SPDX-License-Identifier: Apache-2.0

/// A `Content-Type` value taken apart: the media type, lowercased, and its parameters
/// (`multipart/form-data; boundary="a b"`).
public struct MediaType: Sendable, Hashable {
    /// `type/subtype`, lowercased, without parameters.
    public var essence: String
    /// Parameters in order, names lowercased, quoted values unquoted.
    public var parameters: [(name: String, value: String)]

    /// The media type of a header value (nil for an empty one). Parsed on its bytes: it
    /// runs for every request with a body, several times.
    public init?(_ value: String) {
        let bytes = Array(value.utf8)
        var parts: [Range<Int>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: ";") {
            parts.append(start..<index)
            start = index + 1
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
            var text = trimmed(equals + 1..<pair.upperBound)
            if text.count >= 2, bytes[text.lowerBound] == UInt8(ascii: "\""),
                bytes[text.upperBound - 1] == UInt8(ascii: "\"")
            {
                text = text.lowerBound + 1..<text.upperBound - 1
            }
            return (name, String(decoding: bytes[text], as: UTF8.self))
        }
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
