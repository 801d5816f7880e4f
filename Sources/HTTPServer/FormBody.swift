// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// Form fields from a request body: `application/x-www-form-urlencoded` and
/// `multipart/form-data` (RFC 7578). Any other body is refused with 415, as the app
/// only accepts form posts. Multipart is parsed here by hand: no Debian library offers
/// a parser for it.
enum FormBody {
    static let unsupported = EngineRejection(
        status: .unsupportedMediaType,
        message: "Only application/x-www-form-urlencoded and multipart/form-data bodies are accepted.")

    /// Whether a body of this content type can be decoded (checked before it is read).
    static func isSupported(contentType: String?) -> Bool {
        guard let contentType else { return false }
        let media = mediaType(contentType)
        return media == "application/x-www-form-urlencoded" || media == "multipart/form-data"
    }

    /// The fields of `body`, in order.
    static func fields(contentType: String?, body: [UInt8]) throws(EngineRejection) -> [(name: String, value: String)] {
        guard !body.isEmpty else { return [] }
        guard let contentType else { throw unsupported }
        switch mediaType(contentType) {
        case "application/x-www-form-urlencoded":
            return URLEncoding.decodeForm(String(decoding: body, as: UTF8.self))
        case "multipart/form-data":
            guard let boundary = parameter("boundary", of: contentType), !boundary.isEmpty, boundary.utf8.count <= 70
            else {
                throw EngineRejection(status: .badRequest, message: "The multipart body has no boundary.")
            }
            return try multipart(body, boundary: Array(boundary.utf8))
        default:
            throw unsupported
        }
    }

    private static func mediaType(_ contentType: String) -> String {
        (contentType.split(separator: ";", maxSplits: 1).first ?? "")[...].trimmingASCIISpaces().lowercased()
    }

    /// A parameter of a header value (`boundary=abc` or `boundary="a b"`).
    private static func parameter(_ name: String, of value: String) -> String? {
        for part in value.split(separator: ";").dropFirst() {
            let trimmed = part.trimmingASCIISpaces()
            guard let equals = trimmed.firstIndex(of: "="),
                trimmed[..<equals].trimmingASCIISpaces().lowercased() == name
            else { continue }
            var text = trimmed[trimmed.index(after: equals)...].trimmingASCIISpaces()
            if text.count >= 2 && text.first == "\"" && text.last == "\"" { text = text.dropFirst().dropLast() }
            return String(text)
        }
        return nil
    }

    private static func multipart(_ body: [UInt8], boundary: [UInt8]) throws(EngineRejection)
        -> [(name: String, value: String)]
    {
        let malformed = EngineRejection(status: .badRequest, message: "The multipart body is malformed.")
        let delimiter = Array("--".utf8) + boundary
        let separator = Array("\r\n--".utf8) + boundary
        guard var index = find(delimiter, in: body, from: 0) else { throw malformed }
        index += delimiter.count
        var fields: [(name: String, value: String)] = []
        while true {
            guard index + 2 <= body.count else { throw malformed }
            if body[index] == UInt8(ascii: "-") && body[index + 1] == UInt8(ascii: "-") { return fields }
            guard body[index] == 13 && body[index + 1] == 10 else { throw malformed }
            index += 2
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: body, from: index) else { throw malformed }
            let headerText = String(decoding: body[index..<headersEnd], as: UTF8.self)
            var name: String?
            for line in headerText.split(separator: "\r\n") {
                let lowered = line.lowercased()
                if lowered.hasPrefix("content-disposition:") {
                    name = parameter("name", of: String(line))
                }
            }
            let contentStart = headersEnd + 4
            guard let contentEnd = find(separator, in: body, from: contentStart), let name else { throw malformed }
            fields.append((name, String(decoding: body[contentStart..<contentEnd], as: UTF8.self)))
            index = contentEnd + separator.count
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            if haystack[index] == needle[0] && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
