// SPDX-License-Identifier: Apache-2.0
/// Finds where a text stops being JSON (RFC 8259), for error messages only: the decoder
/// of FoundationEssentials reports "not valid JSON" without a position. Written by hand
/// because no library here offers it; it validates, it builds nothing.
package enum JSONSyntax {
    /// The byte offset of the first error, or nil when the text is valid JSON.
    package static func firstErrorOffset(in bytes: [UInt8]) -> Int? {
        var scanner = Scanner(bytes: bytes)
        scanner.skipSpace()
        guard scanner.value(depth: 0) else { return scanner.index }
        scanner.skipSpace()
        return scanner.index == bytes.count ? nil : scanner.index
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0

        var current: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        mutating func literal(_ word: String) -> Bool {
            for expected in word.utf8 {
                guard current == expected else { return false }
                index += 1
            }
            return true
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < 512, let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return container(close: UInt8(ascii: "}"), keyed: true, depth: depth)
            case UInt8(ascii: "["): return container(close: UInt8(ascii: "]"), keyed: false, depth: depth)
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }

        mutating func container(close: UInt8, keyed: Bool, depth: Int) -> Bool {
            index += 1
            skipSpace()
            if current == close {
                index += 1
                return true
            }
            while true {
                skipSpace()
                if keyed {
                    guard current == UInt8(ascii: "\""), string() else { return false }
                    skipSpace()
                    guard current == UInt8(ascii: ":") else { return false }
                    index += 1
                    skipSpace()
                }
                guard value(depth: depth + 1) else { return false }
                skipSpace()
                if current == UInt8(ascii: ",") {
                    index += 1
                    continue
                }
                guard current == close else { return false }
                index += 1
                return true
            }
        }

        mutating func string() -> Bool {
            index += 1
            while let byte = current {
                index += 1
                if byte == UInt8(ascii: "\"") { return true }
                if byte < 0x20 {
                    index -= 1
                    return false
                }
                if byte == UInt8(ascii: "\\") {
                    guard let escaped = current else { return false }
                    index += 1
                    if escaped == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            guard let hex = current,
                                (0x30...0x39).contains(hex) || (0x41...0x46).contains(hex)
                                    || (0x61...0x66).contains(hex)
                            else {
                                return false
                            }
                            index += 1
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(escaped) {
                        index -= 1
                        return false
                    }
                }
            }
            return false
        }

        mutating func number() -> Bool {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            guard let first = current, (0x30...0x39).contains(first) else { return false }
            index += 1
            if first != UInt8(ascii: "0") { while let d = current, (0x30...0x39).contains(d) { index += 1 } }
            if current == UInt8(ascii: ".") {
                index += 1
                guard let d = current, (0x30...0x39).contains(d) else { return false }
                while let d = current, (0x30...0x39).contains(d) { index += 1 }
            }
            if let e = current, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                index += 1
                if let sign = current, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
                guard let d = current, (0x30...0x39).contains(d) else { return false }
                while let d = current, (0x30...0x39).contains(d) { index += 1 }
            }
            return index > start
        }
    }
}
