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
        return name.withUTF8 { wanted in cookie(named: wanted) { String(decoding: $0, as: UTF8.self) } }
    }

    /// `body` with the value's bytes of the first cookie called `wanted`, where they are
    /// stored; nil when there is none.
    func cookie<Result>(
        named wanted: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result? {
        guard let initial = wanted.first else { return nil }
        return headers.firstFieldResult { name, value -> Result? in
            guard HTTPHeaders.namesEqual(name, "cookie") else { return nil }
            // Scans the bytes in place rather than splitting strings: this runs on every
            // request, and a head may hold 32 KiB of cookies.
            var value = value
            return value.withUTF8 { bytes -> Result? in
                guard let base = bytes.baseAddress else { return nil }
                let count = bytes.count
                var index = 0
                while index < count {
                    var first = index
                    while first < count && Self.isSpace(base[first]) { first += 1 }
                    // The next ';' by memchr: a long header of other cookies is skipped fast.
                    var end = count
                    if let hit = memchr(base + first, Int32(UInt8(ascii: ";")), count - first) {
                        end = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                    }
                    // Most pairs are other cookies: their first name byte already differs.
                    if first < end && base[first] == initial,
                        let value = Self.cookieValue(base, from: first, to: end, named: wanted)
                    {
                        return body(value)
                    }
                    index = end + 1
                }
                return nil
            }
        }
    }

    /// The value's bytes of the pair at `start..<end` of `base` (its leading spaces
    /// skipped) if its name is `wanted`.
    private static func cookieValue(
        _ base: UnsafePointer<UInt8>, from start: Int, to end: Int, named wanted: UnsafeBufferPointer<UInt8>
    ) -> UnsafeBufferPointer<UInt8>? {
        guard let equals = memchr(base + start, Int32(UInt8(ascii: "=")), end - start) else { return nil }
        let afterName = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(equals))
        var nameEnd = afterName
        while nameEnd > start && isSpace(base[nameEnd - 1]) { nameEnd -= 1 }
        guard nameEnd - start == wanted.count, memcmp(base + start, wanted.baseAddress!, wanted.count) == 0 else {
            return nil
        }
        var valueStart = afterName + 1
        var valueEnd = end
        while valueStart < valueEnd && isSpace(base[valueStart]) { valueStart += 1 }
        while valueEnd > valueStart && isSpace(base[valueEnd - 1]) { valueEnd -= 1 }
        if valueEnd - valueStart >= 2 && base[valueStart] == UInt8(ascii: "\"")
            && base[valueEnd - 1] == UInt8(ascii: "\"")
        {
            valueStart += 1
            valueEnd -= 1
        }
        return UnsafeBufferPointer(start: base + valueStart, count: valueEnd - valueStart)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
}
