// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials  // JSONDecoder, for reading the tab definition at start-up only.

/// The tab definition file: `{"appearance": {…}, "tabs": [{…}, …], "groups": [{…}, …]}`,
/// where `appearance` and `groups` may be left out. Decoding validates like `init(tabs:appearance:)`,
/// so a decoded model is as trustworthy as a constructed one.
extension TabBarModel: Codable {
    private enum CodingKeys: String, CodingKey {
        case appearance, tabs, groups
    }

    /// Reads and validates a definition; validation failures are thrown as `TabBarModelError`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            tabs: container.decode([Tab].self, forKey: .tabs),
            groups: container.decodeIfPresent([TabGroup].self, forKey: .groups) ?? [],
            appearance: container.decodeIfPresent(TabBarAppearance.self, forKey: .appearance) ?? .init())
    }

    /// Writes the definition in the shape `decode(json:)` reads.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appearance, forKey: .appearance)
        try container.encode(tabs, forKey: .tabs)
        if !groups.isEmpty { try container.encode(groups, forKey: .groups) }
    }

    /// Decodes and validates a tab definition.
    ///
    /// Every failure is a `TabBarModelError`: validation problems keep their own
    /// message, and JSON problems become `.invalidJSON` naming the place, e.g.
    /// "invalid JSON: tabs[2]: missing key 'icon'" (array indices count from 0, as in
    /// the file), or the line and column of a syntax error.
    public static func decode(json: Data) throws(TabBarModelError) -> TabBarModel {
        do {
            return try JSONDecoder().decode(TabBarModel.self, from: json)
        } catch let error as TabBarModelError {
            throw error
        } catch let error as DecodingError {
            throw TabBarModelError(.invalidJSON(describe(error, in: json)))
        } catch {
            throw TabBarModelError(.invalidJSON(String(describing: error)))
        }
    }

    /// Decodes and validates a tab definition given as bytes.
    public static func decode(json: [UInt8]) throws(TabBarModelError) -> TabBarModel {
        try decode(json: Data(json))
    }

    /// Decodes and validates a tab definition given as text.
    public static func decode(json: String) throws(TabBarModelError) -> TabBarModel {
        try decode(json: Data(json.utf8))
    }

    /// A one-line account of a decoding error: where (`tabs[2].badge`) and what.
    private static func describe(_ error: DecodingError, in json: Data) -> String {
        func place(_ path: [any CodingKey]) -> String {
            var text = ""
            for key in path {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text.isEmpty ? "" : "\(text): "
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(place(context.codingPath))missing key '\(key.stringValue)'"
        case .typeMismatch(let type, let context):
            return "\(place(context.codingPath))expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(place(context.codingPath))expected \(typeName(type)), found null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return "the text is not valid JSON" + syntaxDetail(json)
            }
            return "\(place(context.codingPath))\(context.debugDescription)"
        @unknown default:
            return String(describing: error)
        }
    }

    /// Where the syntax error is, as "; … near line 3, column 12", or "".
    ///
    /// `JSONDecoder` only says "not valid JSON", so a small scan finds the first place
    /// where the text stops being JSON. Only runs after a failure.
    private static func syntaxDetail(_ json: Data) -> String {
        guard let offset = JSONSyntax.firstErrorOffset(in: Array(json)) else { return "" }
        let bytes = Array(json)
        let before = bytes[..<offset]
        let line = before.filter { $0 == UInt8(ascii: "\n") }.count + 1
        let column = offset - (before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0) + 1
        return "; unexpected text near line \(line), column \(column)"
    }

    /// A reader's name for the Swift type a JSON value should have had.
    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type: return "a whole number"
        default:
            // Collections are reported with element types that vary (`Array<Any>`, `[Tab]`).
            let name = String(describing: type)
            if name.hasPrefix("Array") || name.hasPrefix("[") && !name.contains(":") { return "a list" }
            return "an object"
        }
    }
}
