// SPDX-License-Identifier: Apache-2.0
/// One item of a header list weighted with quality values, as in `Accept-Language:
/// de-AT, de;q=0.9` or `Accept-Encoding: br, gzip;q=0.5` (RFC 9110 §12.4.2).
///
/// ```swift
/// let items = QualityValue.list(request.headers.values("accept-language"))
/// let best = QualityValue.preferred(request.headers.values("accept-language")).first?.value
/// ```
public struct QualityValue: Sendable, Hashable {
    /// The item without its parameters, trimmed ("de-AT", "gzip", "*").
    public let value: Substring
    /// Its weight: 1 without `q`; a `q` that is not a number from 0 to 1 counts as 0.
    public let weight: Double
    /// Where it stood in the list, from 0 (breaks ties between equal weights).
    public let position: Int

    /// How many comma-separated items `list` reads unless told otherwise: browsers send a
    /// handful, and a head of 32 KiB could hold thousands, each costing a parse.
    public static let defaultItemLimit = 64

    /// The longest `q` value there is ("0.001"); a longer one is not a quality value.
    private static let longestWeight = 5
    /// Parameters read per item (`q` is usually the only one).
    private static let parameterLimit = 8

    /// Every non-empty item of the comma-separated lists in `fieldValues` (repeated header
    /// fields count as one list), in order, refused ones (`q=0`) included. At most
    /// `limit` items are read (empty ones count): the rest of a longer list is ignored,
    /// so a hostile list costs no more than a short one.
    public static func list(_ fieldValues: [String], limit: Int = defaultItemLimit) -> [QualityValue] {
        var items: [QualityValue] = []
        var read = 0
        for field in fieldValues {
            forEachItem(of: field, position: items.count, read: &read, limit: limit) { items.append($0) }
        }
        return items
    }

    /// What `preferred([fieldValue], limit: limit).lazy.compactMap { match($0.value) }.first` gives,
    /// without building or sorting the list: the match of the most preferred acceptable
    /// item that `match` takes (equal weights: the earlier item). For a field read on
    /// every request (`Accept-Language`), where the list itself is not wanted.
    ///
    /// ```swift
    /// let code = QualityValue.mostPreferred(in: "fr, de;q=0.5") { $0 == "de" || $0 == "en" ? String($0) : nil }
    /// // "de"
    /// ```
    public static func mostPreferred<Match>(
        in fieldValue: String, limit: Int = defaultItemLimit, where match: (Substring) -> Match?
    ) -> Match? {
        var best: (match: Match, weight: Double)?
        var read = 0
        forEachItem(of: fieldValue, position: 0, read: &read, limit: limit) { item in
            // An item weighed no more than the best so far cannot win: equal weights keep
            // the earlier one, so `match` is not even asked.
            guard item.weight > (best?.weight ?? 0), let found = match(item.value) else { return }
            best = (found, item.weight)
        }
        return best?.match
    }

    /// Calls `body` with each non-empty item of `field` in order, numbered from
    /// `position`, while fewer than `limit` items (empty ones included) have been read,
    /// counted in `read` across fields. Scans the field's bytes (commas and semicolons
    /// are ASCII, so never inside a character); an item of ASCII alone is read there too,
    /// any other through `parse(_:position:)`, which compares characters.
    private static func forEachItem(
        of field: String, position: Int, read: inout Int, limit: Int, _ body: (QualityValue) -> Void
    ) {
        let scanned: Void? = field.utf8.withContiguousStorageIfAvailable { bytes in
            var position = position
            var offset = 0
            while read < limit, offset < bytes.count {
                read += 1
                let end = bytes[offset...].firstIndex(of: UInt8(ascii: ",")) ?? bytes.count
                let item = offset..<end
                offset = end + 1
                let parsed =
                    bytes[item].allSatisfy { $0 < 0x80 }
                    ? parseASCII(bytes, item, of: field, position: position)
                    : parse(Self.text(field, item), position: position)
                guard let parsed else { continue }
                position += 1
                body(parsed)
            }
        }
        if scanned == nil {
            var contiguous = field
            contiguous.makeContiguousUTF8()
            forEachItem(of: contiguous, position: position, read: &read, limit: limit, body)
        }
    }

    /// The part of `field` at byte offsets `range` (on character boundaries here).
    private static func text(_ field: String, _ range: Range<Int>) -> Substring {
        let utf8 = field.utf8
        return field[
            utf8.index(
                utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
    }

    /// `range` without the spaces and tabs at either end.
    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Range<Int> {
        var lower = range.lowerBound
        var upper = range.upperBound
        while lower < upper, bytes[lower] == 0x20 || bytes[lower] == 0x09 { lower += 1 }
        while lower < upper, bytes[upper - 1] == 0x20 || bytes[upper - 1] == 0x09 { upper -= 1 }
        return lower..<upper
    }

    /// `parse(_:position:)` of an item of ASCII bytes at `item`, where each character is
    /// one byte, so the same steps on bytes give the same item.
    private static func parseASCII(
        _ bytes: UnsafeBufferPointer<UInt8>, _ item: Range<Int>, of field: String, position: Int
    ) -> QualityValue? {
        let semicolon = bytes[item].firstIndex(of: UInt8(ascii: ";")) ?? item.upperBound
        let value = trimmed(bytes, item.lowerBound..<semicolon)
        guard !value.isEmpty else { return nil }
        var weight = 1.0
        var cursor = semicolon < item.upperBound ? semicolon + 1 : item.upperBound
        var read = 0
        while read < parameterLimit, cursor < item.upperBound {
            read += 1
            let end = bytes[cursor..<item.upperBound].firstIndex(of: UInt8(ascii: ";")) ?? item.upperBound
            let parameter = trimmed(bytes, cursor..<end)
            cursor = end < item.upperBound ? end + 1 : item.upperBound
            guard parameter.count >= 2, bytes[parameter.lowerBound] | 0x20 == UInt8(ascii: "q"),
                bytes[parameter.lowerBound + 1] == UInt8(ascii: "=")
            else { continue }
            let number = parameter.lowerBound + 2..<parameter.upperBound
            weight = number.count <= longestWeight ? weightValue(bytes, number, of: field) : 0
        }
        return QualityValue(value: text(field, value), weight: weight, position: position)
    }

    /// The weight a `q` of at most five bytes gives: "0", "1", "0.d" to "0.ddd" and "1."
    /// followed by zeros computed at once (a quotient of integers, rounded as the parser
    /// of `Double` rounds), anything else through `Double`; outside 0...1 it is 0.
    private static func weightValue(_ bytes: UnsafeBufferPointer<UInt8>, _ number: Range<Int>, of field: String)
        -> Double
    {
        let lower = number.lowerBound
        if let first = number.isEmpty ? nil : bytes[lower], first == UInt8(ascii: "0") || first == UInt8(ascii: "1"),
            number.count == 1 || (number.count >= 3 && bytes[lower + 1] == UInt8(ascii: "."))
        {
            var fraction = 0
            var scale = 1
            var plain = true
            for byte in bytes[min(lower + 2, number.upperBound)..<number.upperBound] {
                guard byte &- UInt8(ascii: "0") < 10 else {
                    plain = false
                    break
                }
                fraction = fraction * 10 + Int(byte &- UInt8(ascii: "0"))
                scale *= 10
            }
            if plain {
                if first == UInt8(ascii: "1") { return fraction == 0 ? 1 : 0 }
                return Double(fraction) / Double(scale)
            }
        }
        return Double(text(field, number)).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0
    }

    /// One item: its value and the last `q` among its parameters.
    private static func parse(_ item: Substring, position: Int) -> QualityValue? {
        let semicolon = item.utf8.firstIndex(of: UInt8(ascii: ";")) ?? item.endIndex
        let value = item[..<semicolon].trimmingASCIISpaces()
        guard !value.isEmpty else { return nil }
        var weight = 1.0
        var parameters = semicolon < item.endIndex ? item[item.utf8.index(after: semicolon)...] : item[item.endIndex...]
        var read = 0
        while read < parameterLimit, !parameters.isEmpty {
            read += 1
            let end = parameters.utf8.firstIndex(of: UInt8(ascii: ";")) ?? parameters.endIndex
            let parameter = parameters[..<end].trimmingASCIISpaces()
            parameters =
                end < parameters.endIndex
                ? parameters[parameters.utf8.index(after: end)...] : parameters[parameters.endIndex...]
            guard parameter.hasPrefix("q=") || parameter.hasPrefix("Q=") else { continue }
            let number = parameter.dropFirst(2)
            weight =
                number.utf8.count <= longestWeight
                ? Double(number).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0 : 0
        }
        return QualityValue(value: value, weight: weight, position: position)
    }

    /// The acceptable items (weight above 0) among the first `limit`, most preferred
    /// first; equal weights keep their order in the list.
    public static func preferred(_ fieldValues: [String], limit: Int = defaultItemLimit) -> [QualityValue] {
        list(fieldValues, limit: limit).filter { $0.weight > 0 }.sorted {
            $0.weight != $1.weight ? $0.weight > $1.weight : $0.position < $1.position
        }
    }
}
