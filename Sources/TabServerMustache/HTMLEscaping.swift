// SPDX-License-Identifier: Apache-2.0
/// Appends `string` as UTF-8, replacing the five characters that can end an HTML text
/// node or attribute value: `&`, `<`, `>`, `"` and `'`.
///
/// Works on bytes: every character to replace is ASCII, and in UTF-8 an ASCII byte never
/// occurs inside a multi-byte character, so non-ASCII text is copied untouched.
func appendEscapingHTML(_ string: String, into buffer: inout [UInt8]) {
    let done: Void? = string.utf8.withContiguousStorageIfAvailable { bytes in
        appendEscapingHTML(bytes, into: &buffer)
    }
    if done == nil {
        // Bridged strings without contiguous UTF-8: copy once, then escape.
        Array(string.utf8).withUnsafeBufferPointer { appendEscapingHTML($0, into: &buffer) }
    }
}

private func appendEscapingHTML(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
    var runStart = 0
    for index in 0..<bytes.count {
        let replacement: StaticString
        switch bytes[index] {
        case UInt8(ascii: "&"): replacement = "&amp;"
        case UInt8(ascii: "<"): replacement = "&lt;"
        case UInt8(ascii: ">"): replacement = "&gt;"
        case UInt8(ascii: "\""): replacement = "&quot;"
        case UInt8(ascii: "'"): replacement = "&#39;"
        default: continue
        }
        if runStart < index {
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
        }
        replacement.withUTF8Buffer { buffer.append(contentsOf: $0) }
        runStart = index + 1
    }
    if runStart < bytes.count {
        buffer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }
}
