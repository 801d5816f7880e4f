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
            var rest = field[...]
            while read < limit, !rest.isEmpty {
                read += 1
                let item: Substring
                if let comma = rest.utf8.firstIndex(of: UInt8(ascii: ",")) {
                    item = rest[..<comma]
                    rest = rest[rest.utf8.index(after: comma)...]
                } else {
                    item = rest
                    rest = rest[rest.endIndex...]
                }
                guard let parsed = parse(item, position: items.count) else { continue }
                items.append(parsed)
            }
        }
        return items
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
