// SPDX-License-Identifier: Apache-2.0
/// JSON string escaping (RFC 8259), the one every JSON the server writes uses: the JSON
/// route's encoder, the JSON log, live events, the generated manifest and worker settings,
/// speculation rules, VAPID claims.
///
/// A quote, a backslash, every control character and DEL are escaped (`\n`, `\r`, `\t`,
/// `\b`, `\f`, else `\u00XX`); everything else, UTF-8 included, is written as it is.
///
/// ```swift
/// JSONString.quoted("say \"hi\"")  // "\"say \\\"hi\\\"\""
/// ```
public enum JSONString {
    /// Whether `byte` is written escaped inside a JSON string.
    @inlinable
    public static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Calls `append` with each byte of the escape sequence of `byte` (one for which
    /// `needsEscape` holds), backslash included.
    @inlinable
    public static func escape(_ byte: UInt8, _ append: (UInt8) -> Void) {
        append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): append(byte)
        case 0x0A: append(UInt8(ascii: "n"))
        case 0x0D: append(UInt8(ascii: "r"))
        case 0x09: append(UInt8(ascii: "t"))
        case 0x08: append(UInt8(ascii: "b"))
        case 0x0C: append(UInt8(ascii: "f"))
        default:
            append(UInt8(ascii: "u"))
            append(UInt8(ascii: "0"))
            append(UInt8(ascii: "0"))
            append(hexDigit(byte >> 4))
            append(hexDigit(byte & 0x0F))
        }
    }

    /// Appends `utf8` escaped (without quotes) to `out`.
    public static func appendEscaped(_ utf8: some Sequence<UInt8>, to out: inout [UInt8]) {
        for byte in utf8 {
            if needsEscape(byte) { escape(byte) { out.append($0) } } else { out.append(byte) }
        }
    }

    /// `text` escaped, without quotes: the inside of a JSON string.
    public static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: needsEscape) else { return text }
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 8)
        appendEscaped(text.utf8, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// `text` as a JSON string literal, quotes included.
    public static func quoted(_ text: String) -> String { "\"" + escaped(text) + "\"" }

    @usableFromInline
    static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}
