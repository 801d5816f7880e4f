// SPDX-License-Identifier: Apache-2.0
/// Percent-encoding for URLs this server writes, and decoding of urlencoded forms and
/// queries and form bodies (the engine and the in-process test client both use it).
public enum URLEncoding {
    /// Percent-encodes everything but unreserved characters (RFC 3986 §2.3).
    public static func encodeComponent(_ text: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        let hex = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` and (when `plusIsSpace`) `+`; malformed escapes stay as written.
    public static func decode(_ text: some StringProtocol, plusIsSpace: Bool = true) -> String {
        let bytes = Array(text.utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hexValue(bytes[index + 1]),
                let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `a=1&b=2` into ordered pairs.
    public static func decodeForm(_ text: some StringProtocol) -> [(name: String, value: String)] {
        text.split(separator: "&").map { pair in
            if let equals = pair.firstIndex(of: "=") {
                return (decode(pair[..<equals]), decode(pair[pair.index(after: equals)...]))
            }
            return (decode(pair), "")
        }
    }

    /// Ordered pairs into `a=1&b=2`.
    public static func encodeForm(_ pairs: [(String, String)]) -> String {
        pairs.map { "\(encodeComponent($0.0))=\(encodeComponent($0.1))" }.joined(separator: "&")
    }

    /// The value of one hexadecimal digit (`0-9`, `a-f`, `A-F`), or nil. Shared by every
    /// decoder of outside bytes: percent escapes here and in the engine, chunk sizes.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
