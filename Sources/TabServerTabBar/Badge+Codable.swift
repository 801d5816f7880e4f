// SPDX-License-Identifier: Apache-2.0
/// JSON shape: exactly one of `{"text": "New"}`, `{"count": 3}` or `{"dot": true}`,
/// plus an optional `"color"`. One key per kind reads better in a hand-written tab
/// definition than a `{"kind": …, "value": …}` pair.
extension Badge: Codable {
    private enum CodingKeys: String, CodingKey {
        case text, count, dot, color
    }

    /// Reads the one-key-per-kind shape; refuses zero or several kinds and a false "dot".
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kinds = [CodingKeys.text, .count, .dot].filter { container.contains($0) }
        guard kinds.count == 1, let kind = kinds.first else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "a badge needs exactly one of \"text\", \"count\" or \"dot\""))
        }
        switch kind {
        case .text:
            value = .text(try container.decode(String.self, forKey: .text))
        case .count:
            value = .count(try container.decode(Int.self, forKey: .count))
        default:
            guard try container.decode(Bool.self, forKey: .dot) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .dot, in: container,
                    debugDescription: "\"dot\" must be true (leave the badge out for no badge)")
            }
            value = .dot
        }
        color = try container.decodeIfPresent(String.self, forKey: .color)
    }

    /// Writes the one-key-per-kind shape.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch value {
        case .text(let text): try container.encode(text, forKey: .text)
        case .count(let count): try container.encode(count, forKey: .count)
        case .dot: try container.encode(true, forKey: .dot)
        }
        try container.encodeIfPresent(color, forKey: .color)
    }
}
