// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

extension HTTPRequest {
    /// The value of the first cookie called `name` in the `Cookie` header(s), if any.
    /// Malformed pairs are skipped, never an error: cookies are client input.
    /// Spaces and tabs around names and values are ignored; a value in double quotes
    /// loses them.
    public func cookie(_ name: String) -> String? {
        let wanted = Array(name.utf8)
        for field in headers where HTTPHeaders.namesEqual(field.name, "cookie") {
            // Scans bytes rather than splitting strings: this runs on every request.
            let bytes = Array(field.value.utf8)
            var index = 0
            while index < bytes.count {
                var end = index
                while end < bytes.count && bytes[end] != UInt8(ascii: ";") { end += 1 }
                if let value = Self.cookieValue(bytes[index..<end], named: wanted) { return value }
                index = end + 1
            }
        }
        return nil
    }

    private static func cookieValue(_ pair: ArraySlice<UInt8>, named wanted: [UInt8]) -> String? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return nil }
        var nameStart = pair.startIndex
        var nameEnd = equals
        while nameStart < nameEnd && isSpace(pair[nameStart]) { nameStart += 1 }
        while nameEnd > nameStart && isSpace(pair[nameEnd - 1]) { nameEnd -= 1 }
        guard pair[nameStart..<nameEnd].elementsEqual(wanted) else { return nil }
        var valueStart = equals + 1
        var valueEnd = pair.endIndex
        while valueStart < valueEnd && isSpace(pair[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && isSpace(pair[valueEnd - 1]) { valueEnd -= 1 }
        if valueEnd - valueStart >= 2 && pair[valueStart] == UInt8(ascii: "\"")
            && pair[valueEnd - 1] == UInt8(ascii: "\"")
        {
            valueStart += 1
            valueEnd -= 1
        }
        return String(decoding: pair[valueStart..<valueEnd], as: UTF8.self)
    }
}
