// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials

/// How a `VisitorValue` is kept among the session's app values: as JSON text under its key.
package enum VisitorValueCoding {
    package static func decode<Value: VisitorValue>(_ type: Value.Type, from values: [String: String]) -> Value? {
        guard let text = values[Value.key] else { return nil }
        return try? JSONDecoder().decode(Value.self, from: Data(text.utf8))
    }

    package static func encode<Value: VisitorValue>(_ value: Value) -> String? {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
    }
}
