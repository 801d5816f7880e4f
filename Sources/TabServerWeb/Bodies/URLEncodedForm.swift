// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// `application/x-www-form-urlencoded` bodies (the WHATWG URL standard's form
/// encoding): `name=value` pairs joined by `&`, `+` for a space, `%XX` for a byte.
/// Decoded names and values must be UTF-8: anything else is a 400 naming the field.
enum URLEncodedForm {
    static func decode(_ body: [UInt8], limits: BodyLimits) throws(HTTPError) -> [(name: String, value: String)] {
        var fields: [(name: String, value: String)] = []
        var start = 0
        // Pairs found in place (no array of slices first); empty ones are skipped.
        while start < body.count {
            let end = body[start...].firstIndex(of: UInt8(ascii: "&")) ?? body.count
            defer { start = end + 1 }
            guard end > start else { continue }
            let pair = body[start..<end]
            guard fields.count < limits.maxFields else {
                throw .contentTooLarge("The form has more than \(limits.maxFields) fields.")
            }
            let equals = pair.firstIndex(of: UInt8(ascii: "="))
            let rawName = pair[pair.startIndex..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? []
            guard let name = text(rawName) else {
                throw .badRequest("A form field's name is not valid UTF-8 text.")
            }
            guard let value = text(rawValue) else {
                throw .badRequest(
                    "The form field '\(HTTPError.quoted(name))' is not valid UTF-8 text.", field: name)
            }
            fields.append((name, value))
        }
        return fields
    }

    /// Percent- and plus-decoded, then checked as UTF-8 (nil when it is not). A `%` not
    /// followed by two hex digits stays as it is, as browsers leave it.
    private static func text(_ raw: ArraySlice<UInt8>) -> String? {
        // Most fields (ids, tokens) have nothing to decode: validated in place. (Invalid
        // UTF-8 then takes the long way below, which finds it invalid too.)
        let plain = raw.withUnsafeBufferPointer { bytes -> String? in
            let encoded = bytes.contains { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "%") }
            return encoded ? nil : String(utf8Validating: bytes)
        }
        if let plain { return plain }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var index = raw.startIndex
        while index < raw.endIndex {
            let byte = raw[index]
            if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else if byte == UInt8(ascii: "%"), raw.distance(from: index, to: raw.endIndex) >= 3,
                let high = URLEncoding.hexValue(raw[index + 1]), let low = URLEncoding.hexValue(raw[index + 2])
            {
                bytes.append(high << 4 | low)
                index += 3
                continue
            } else {
                bytes.append(byte)
            }
            index += 1
        }
        return String(utf8Validating: bytes)
    }
}
