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

    /// Every non-empty item of the comma-separated lists in `fieldValues` (repeated header
    /// fields count as one list), in order, refused ones (`q=0`) included.
    public static func list(_ fieldValues: [String]) -> [QualityValue] {
        var items: [QualityValue] = []
        for field in fieldValues {
            for item in field.split(separator: ",") {
                let parts = item.split(separator: ";")
                guard let value = parts.first?.trimmingASCIISpaces(), !value.isEmpty else { continue }
                var weight = 1.0
                for parameter in parts.dropFirst() {
                    let trimmed = parameter.trimmingASCIISpaces()
                    guard trimmed.hasPrefix("q=") || trimmed.hasPrefix("Q=") else { continue }
                    weight = Double(trimmed.dropFirst(2)).flatMap { (0...1).contains($0) ? $0 : nil } ?? 0
                }
                items.append(QualityValue(value: value, weight: weight, position: items.count))
            }
        }
        return items
    }

    /// The acceptable items (weight above 0), most preferred first; equal weights keep
    /// their order in the list.
    public static func preferred(_ fieldValues: [String]) -> [QualityValue] {
        list(fieldValues).filter { $0.weight > 0 }.sorted {
            $0.weight != $1.weight ? $0.weight > $1.weight : $0.position < $1.position
        }
    }
}
