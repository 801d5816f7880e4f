// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

/// `multipart/form-data` bodies (RFC 7578), parsed here by hand: no Debian library
/// offers a parser for it. Each part is bounded before it is read (`BodyLimits`): the
/// number of parts, the size of a part's header block and of its content. A part with
/// a `filename` is a file (`UploadedFile`, its name sanitized); any other is a text field
/// and must be UTF-8.
enum Multipart {
    static func decode(_ body: [UInt8], boundary: String, limits: BodyLimits) throws(HTTPError) -> FormData {
        let delimiter = Array("--".utf8) + Array(boundary.utf8)
        let separator = Array("\r\n".utf8) + delimiter
        guard let first = find(delimiter, in: body, from: 0) else {
            throw .badRequest("The multipart body does not contain its boundary.")
        }
        var form = FormData()
        var index = first + delimiter.count
        while true {
            guard index + 2 <= body.count else {
                throw .badRequest("The multipart body ends before its last boundary.")
            }
            if body[index] == UInt8(ascii: "-") && body[index + 1] == UInt8(ascii: "-") { return form }
            guard body[index] == 13 && body[index + 1] == 10 else {
                throw .badRequest("The multipart body has a malformed boundary line.")
            }
            index += 2
            guard form.fields.count + form.files.count < limits.maxFields else {
                throw .contentTooLarge("The form has more than \(limits.maxFields) parts.")
            }
            let headerLimit = min(body.count, index + limits.maxPartHeaderSize)
            guard let headersEnd = find(Array("\r\n\r\n".utf8), in: body, from: index, before: headerLimit + 4) else {
                if headerLimit < body.count {
                    throw .contentTooLarge(
                        "A multipart part's headers are longer than \(limits.maxPartHeaderSize) bytes.")
                }
                throw .badRequest("A multipart part ends inside its headers.")
            }
            let headers = try partHeaders(body[index..<headersEnd])
            let contentStart = headersEnd + 4
            let contentLimit = min(body.count, contentStart + limits.maxPartSize + separator.count)
            guard let contentEnd = find(separator, in: body, from: contentStart, before: contentLimit) else {
                if contentLimit < body.count {
                    throw .contentTooLarge(
                        "The multipart part '\(HTTPError.quoted(headers.name))' is larger than \(limits.maxPartSize) bytes.",
                        field: headers.name)
                }
                throw .badRequest(
                    "The multipart part '\(HTTPError.quoted(headers.name))' is cut short.", field: headers.name)
            }
            let content = Array(body[contentStart..<contentEnd])
            if let fileName = headers.fileName {
                form.files.append(
                    UploadedFile(
                        fieldName: headers.name, fileName: FileName.sanitized(fileName),
                        contentType: headers.contentType ?? "application/octet-stream", bytes: content))
            } else {
                guard let value = String(utf8Validating: content) else {
                    throw .badRequest(
                        "The form field '\(HTTPError.quoted(headers.name))' is not valid UTF-8 text.",
                        field: headers.name)
                }
                form.fields.append((headers.name, value))
            }
            index = contentEnd + separator.count
        }
    }

    private struct PartHeaders {
        var name: String
        var fileName: String?
        var contentType: String?
    }

    /// The `Content-Disposition` and `Content-Type` of a part; the name is required.
    private static func partHeaders(_ block: ArraySlice<UInt8>) throws(HTTPError) -> PartHeaders {
        guard let text = String(utf8Validating: block) else {
            throw .badRequest("A multipart part's headers are not valid UTF-8 text.")
        }
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in text.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else {
                throw .badRequest("A multipart part has a malformed header line.")
            }
            let field = line[..<colon].trimmingASCIISpaces().lowercased()
            let value = String(line[line.index(after: colon)...].trimmingASCIISpaces())
            switch field {
            case "content-disposition":
                let disposition = MediaType(value)
                guard disposition?.essence == "form-data" else {
                    throw .badRequest("A multipart part is not form data (Content-Disposition: form-data).")
                }
                name = disposition?.parameter("name")
                fileName = disposition?.parameter("filename")
            case "content-type":
                contentType = value
            default:
                continue
            }
        }
        guard let name, !name.isEmpty else { throw .badRequest("A multipart part has no field name.") }
        return PartHeaders(name: name, fileName: fileName, contentType: contentType)
    }

    /// The first index of `needle` in `haystack[start..<end]` (the match must end by `end`).
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, before end: Int? = nil) -> Int? {
        let end = min(end ?? haystack.count, haystack.count)
        guard !needle.isEmpty, end - start >= needle.count else { return nil }
        let first = needle[0]
        var index = start
        let last = end - needle.count
        while index <= last {
            if haystack[index] == first && haystack[index..<(index + needle.count)].elementsEqual(needle) {
                return index
            }
            index += 1
        }
        return nil
    }
}
