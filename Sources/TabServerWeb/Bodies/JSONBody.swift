// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerHTTP

/// JSON bodies decoded into an app's `Decodable` type, bounded first: the size, and the
/// nesting of arrays and objects (a few kilobytes of `[[[[…` would otherwise cost the
/// decoder a deep recursion). A body that is not JSON is a 400; JSON that does not fit
/// the type a 422 naming the field at fault (`RequestDecodingError`).
enum JSONBody {
    static func decode<Value: Decodable>(_ type: Value.Type, from body: [UInt8], limits: BodyLimits) throws -> Value {
        guard body.count <= limits.maxJSONSize else {
            throw HTTPError.contentTooLarge("The JSON body is larger than \(limits.maxJSONSize) bytes.")
        }
        guard nestingDepth(body) <= limits.maxJSONDepth else {
            throw HTTPError.badRequest("The JSON body is nested more than \(limits.maxJSONDepth) levels deep.")
        }
        guard String(utf8Validating: body) != nil else {
            throw HTTPError.badRequest("The JSON body is not valid UTF-8 text.")
        }
        do {
            return try JSONDecoder().decode(Value.self, from: Data(body))
        } catch let error as DecodingError {
            // A number that does not fit its field comes as "not valid JSON", without a path.
            if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
                let located = JSONFieldLocator.fault(decoding: Value.self, from: body)
            {
                throw describe(located)
            }
            throw describe(error)
        } catch {
            throw HTTPError.badRequest("The body is not valid JSON.")
        }
    }

    /// The deepest nesting of `[` and `{` outside strings (a scan, no parse).
    static func nestingDepth(_ body: [UInt8]) -> Int {
        var depth = 0
        var deepest = 0
        var inString = false
        var escaped = false
        for byte in body {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: continue
            }
        }
        return deepest
    }

    private static func describe(_ error: DecodingError) -> any Error {
        func path(_ context: DecodingError.Context) -> String {
            context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        }
        func invalid(_ field: String, _ message: String) -> RequestDecodingError {
            RequestDecodingError([FieldError(field, message)])
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = (path(context).isEmpty ? "" : path(context) + ".") + key.stringValue
            return invalid(field, "The JSON field '\(HTTPError.quoted(field))' is missing.")
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            let field = path(context)
            return invalid(field, "The JSON field '\(HTTPError.quoted(field))' has the wrong type.")
        case .dataCorrupted(let context):
            let field = path(context)
            guard !field.isEmpty else { return HTTPError.badRequest("The body is not valid JSON.") }
            // Only the library's own reason is told: an app's decoder may say more than it should.
            let reason = context.underlyingError is NumberDoesNotFit ? ": \(context.debugDescription)" : "."
            return invalid(field, "The JSON field '\(HTTPError.quoted(field))' is not valid\(reason)")
        @unknown default:
            return HTTPError.badRequest("The body is not valid JSON.")
        }
    }
}
