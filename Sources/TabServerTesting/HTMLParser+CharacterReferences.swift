// SPDX-License-Identifier: Apache-2.0

/// Character references in text and attribute values: the named ones a server's escaping
/// writes (and a few that hand-written templates use), decimal and hexadecimal ones. A
/// named reference needs its `;`; one this table does not know stays as written.
extension HTMLParser {
    static let namedCharacterReferences: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}",
        "copy": "©", "hellip": "…", "mdash": "—", "ndash": "–", "middot": "·",
        "lsquo": "‘", "rsquo": "’", "ldquo": "“", "rdquo": "”",
    ]

    /// `bytes` as text with its character references decoded.
    static func decodingCharacterReferences(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(UInt8(ascii: "&")) else { return String(decoding: bytes, as: UTF8.self) }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(bytes.count)
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == UInt8(ascii: "&"), let (text, length) = characterReference(in: bytes, at: index) {
                decoded.append(contentsOf: text.utf8)
                index += length
            } else {
                decoded.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: decoded, as: UTF8.self)
    }

    /// The reference starting at the `&` at `start`: its text and how many bytes it
    /// takes, or nil when none starts there.
    private static func characterReference(in bytes: ArraySlice<UInt8>, at start: Int) -> (String, Int)? {
        var index = start + 1
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == UInt8(ascii: "#") {
            index += 1
            var radix: UInt32 = 10
            if index < bytes.endIndex, bytes[index] | 0x20 == UInt8(ascii: "x") {
                radix = 16
                index += 1
            }
            var value: UInt32 = 0
            var digits = 0
            while index < bytes.endIndex, let digit = digitValue(bytes[index], radix: radix) {
                value = min(value * radix + digit, 0x11_0000)  // past the last code point stays past it
                digits += 1
                index += 1
            }
            guard digits > 0 else { return nil }
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: ";") { index += 1 }
            let scalar = value == 0 ? nil : Unicode.Scalar(value)
            return (String(Character(scalar ?? "\u{FFFD}")), index - start)
        }
        let nameStart = index
        while index < bytes.endIndex, index - nameStart <= 8, isASCIILetterOrDigit(bytes[index]) { index += 1 }
        guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ";"), index > nameStart,
            let text = namedCharacterReferences[String(decoding: bytes[nameStart..<index], as: UTF8.self)]
        else { return nil }
        return (text, index + 1 - start)
    }

    private static func digitValue(_ byte: UInt8, radix: UInt32) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f") where radix == 16: UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F") where radix == 16: UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    private static func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
        isASCIILetter(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}
