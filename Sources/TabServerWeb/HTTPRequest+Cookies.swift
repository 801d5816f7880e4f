// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

extension HTTPRequest {
    /// The value of the first cookie called `name` in the `Cookie` header(s), if any.
    /// Malformed pairs are skipped, never an error: cookies are client input.
    /// Spaces and tabs around names and values are ignored; a value in double quotes
    /// loses them.
    public func cookie(_ name: String) -> String? {
        // The name's bytes in place (a native string's own storage): no array for them on
        // every request.
        var name = name
        return name.withUTF8 { wanted in cookie(named: wanted) }
    }

    private func cookie(named wanted: UnsafeBufferPointer<UInt8>) -> String? {
        guard let initial = wanted.first else { return nil }
        for field in headers where HTTPHeaders.namesEqual(field.name, "cookie") {
            // Scans the bytes in place rather than splitting strings: this runs on every
            // request, and a head may hold 32 KiB of cookies.
            var value = field.value
            let found = value.withUTF8 { bytes -> String? in
                guard let base = bytes.baseAddress else { return nil }
                var index = 0
                while index < bytes.count {
                    // Most pairs are other cookies: their first name byte already differs,
                    // checked here before anything else is done with the pair.
                    var first = index
                    while first < bytes.count && (bytes[first] == 0x20 || bytes[first] == 0x09) { first += 1 }
                    let candidate = first < bytes.count && bytes[first] == initial
                    // The next ';' by memchr: a long header of other cookies is skipped fast.
                    var end = bytes.count
                    if let hit = memchr(base + first, Int32(UInt8(ascii: ";")), bytes.count - first) {
                        end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    }
                    if candidate, let value = Self.cookieValue(bytes[index..<end], named: wanted) { return value }
                    index = end + 1
                }
                return nil
            }
            if let found { return found }
        }
        return nil
    }

    private static func cookieValue(
        _ pair: Slice<UnsafeBufferPointer<UInt8>>, named wanted: UnsafeBufferPointer<UInt8>
    ) -> String? {
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        // Most pairs are other cookies: their first name byte already differs.
        var first = pair.startIndex
        while first < pair.endIndex && isSpace(pair[first]) { first += 1 }
        guard let initial = wanted.first, first < pair.endIndex, pair[first] == initial else { return nil }
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
