// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

/// Bodies decoded in the web layer: forms (url-encoded and multipart, with files) and
/// JSON, and every way a hostile body is refused: the status, and the field named.
@Suite("Request bodies")
struct RequestBodyTests {
    func request(_ contentType: String?, _ body: [UInt8]) -> HTTPRequest {
        var headers = HTTPHeaders()
        if let contentType { headers.add("Content-Type", contentType) }
        return HTTPRequest(method: .post, path: "/tabs/notes/new", headers: headers, body: body)
    }

    func request(_ contentType: String?, _ body: String) -> HTTPRequest { request(contentType, Array(body.utf8)) }

    /// What a decode that may throw any error threw, as the answer it gets.
    func failure(_ make: () throws -> Void) -> (any HTTPResponseError)? {
        do {
            try make()
            return nil
        } catch let error as any HTTPResponseError {
            return error
        } catch {
            Issue.record("not an HTTPResponseError: \(error)")
            return nil
        }
    }

    func refusal(_ make: () throws(HTTPError) -> Void) -> HTTPError? {
        do throws(HTTPError) {
            try make()
            return nil
        } catch {
            return error
        }
    }

    @Test("a Content-Type taken apart: essence lowercased, parameters trimmed and unquoted, junk skipped")
    func mediaType() throws {
        let type = try #require(MediaType(" Multipart/Form-Data ; Boundary=\"a b\";charset = UTF-8;junk; =x"))
        #expect(type.essence == "multipart/form-data")
        #expect(type.parameter("boundary") == "a b")
        #expect(type.parameter("charset") == "UTF-8")
        #expect(type.parameters.count == 3)
        #expect(type.parameters.last?.name == "")
        #expect(MediaType("application/x-www-form-urlencoded")?.parameters.isEmpty == true)
        #expect(MediaType("") == nil)
        #expect(MediaType("  ; charset=utf-8") == nil)
        #expect(MediaType("text/plain; q=\"")?.parameter("q") == "\"")
    }

    @Test("a ; inside a quoted value is part of it; a backslash escapes only a quote or a backslash")
    func mediaTypeQuotedSemicolon() throws {
        let disposition = try #require(MediaType(#"form-data; name="photo"; filename="a;b.jpg"; size=3"#))
        #expect(disposition.parameter("filename") == "a;b.jpg")
        #expect(disposition.parameter("size") == "3")
        #expect(disposition.parameters.count == 3)
        let escaped = try #require(MediaType(#"form-data; name="say \"hi\"; twice"; filename="C:\dir\a.txt""#))
        #expect(escaped.parameter("name") == #"say "hi"; twice"#)
        #expect(escaped.parameter("filename") == #"C:\dir\a.txt"#, "a Windows path keeps its backslashes")
    }

    @Test("url-encoded: pairs in order, + and %XX decoded, an empty body has no fields")
    func urlEncoded() throws {
        let form = try request(
            "application/x-www-form-urlencoded; charset=UTF-8", "title=caf%C3%A9+au+lait&tag=a&tag=b&e="
        )
        .decodeForm()
        #expect(form.value("title") == "café au lait")
        #expect(form.values("tag") == ["a", "b"])
        #expect(form.value("e") == "")
        #expect(try request(nil, []).decodeForm().fields.isEmpty)
    }

    @Test("url-encoded: a value that is not UTF-8 is a 400 naming its field")
    func urlEncodedInvalidUTF8() {
        let error = refusal { () throws(HTTPError) in
            _ = try request(MediaType.urlEncodedForm, "ok=1&title=%FF%FE").decodeForm()
        }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "title")
        #expect(error?.message.contains("title") == true)
    }

    @Test("url-encoded: raw bytes that are not UTF-8 are a 400 too; empty pairs are skipped, a bare name is empty")
    func urlEncodedRawBytes() throws {
        let error = refusal { () throws(HTTPError) in
            _ = try request(MediaType.urlEncodedForm, Array("ok=1&name=".utf8) + [0xC3, 0x28]).decodeForm()
        }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "name")
        let form = try request(MediaType.urlEncodedForm, "&&tab=music&&csrf=abc_-1&flag&").decodeForm()
        #expect(form.fields.map(\.name) == ["tab", "csrf", "flag"])
        #expect(form.value("tab") == "music")
        #expect(form.value("csrf") == "abc_-1")
        #expect(form.value("flag") == "")
    }

    @Test("too many fields is a 413, checked before they are decoded")
    func tooManyFields() {
        let body = (0..<300).map { "f\($0)=x" }.joined(separator: "&")
        let error = refusal { () throws(HTTPError) in _ = try request(MediaType.urlEncodedForm, body).decodeForm() }
        #expect(error?.status == .contentTooLarge)
    }

    @Test("a body that is not a form is a 415 naming the types taken")
    func notAForm() {
        for type in ["application/json", "text/plain", "xapplication/x-www-form-urlencoded", nil] {
            let error = refusal { () throws(HTTPError) in _ = try request(type, "a=b").decodeForm() }
            #expect(error?.status == .unsupportedMediaType, "\(type ?? "no type")")
            #expect(error?.message.contains("multipart/form-data") == true)
        }
    }

    static let boundary = "XyZ"
    static func multipart(_ parts: [String], close: Bool = true) -> String {
        parts.map { "--\(boundary)\r\n\($0)\r\n" }.joined() + (close ? "--\(boundary)--\r\n" : "")
    }

    @Test("multipart: text fields and files, the file name sanitized, its type kept")
    func multipartFiles() throws {
        let body = Self.multipart([
            "Content-Disposition: form-data; name=\"title\"\r\n\r\nGroceries",
            "Content-Disposition: form-data; name=\"photo\"; filename=\"../../etc/\u{202E}gpj.exe\"\r\nContent-Type: image/png\r\n\r\n\u{1}PNG",
            "Content-Disposition: form-data; name=\"empty\"; filename=\"\"\r\n\r\n",
        ])
        let form = try request("multipart/form-data; boundary=\"XyZ\"", body).decodeForm()
        #expect(form.value("title") == "Groceries")
        #expect(form.fields.count == 1, "files are not text fields")
        let photo = try #require(form.file("photo"))
        #expect(photo.fileName == "gpj.exe")
        #expect(photo.contentType == "image/png")
        #expect(photo.bytes == [1] + Array("PNG".utf8))
        #expect(form.file("empty")?.fileName == "upload")
        #expect(form.file("empty")?.contentType == "application/octet-stream")
    }

    @Test(
        "multipart refusals: no or long boundary, missing boundary line, truncated part, no name, not form-data, invalid UTF-8",
        arguments: [
            ("multipart/form-data", "a=b", 400),
            ("multipart/form-data; boundary=" + String(repeating: "b", count: 71), "a", 400),
            ("multipart/form-data; boundary=XyZ", "no boundary here", 400),
            (
                "multipart/form-data; boundary=XyZ", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\ncut",
                400
            ),
            ("multipart/form-data; boundary=XyZ", "--XyZ\r\nContent-Disposition: form-data; name=\"a\"\r\n", 400),
            ("multipart/form-data; boundary=XyZ", multipart(["Content-Disposition: form-data\r\n\r\nx"]), 400),
            (
                "multipart/form-data; boundary=XyZ",
                multipart(["Content-Disposition: attachment; name=\"a\"\r\n\r\nx"]), 400
            ),
            ("multipart/form-data; boundary=XyZ", multipart(["no colon here\r\n\r\nx"]), 400),
            ("multipart/form-data; boundary=XyZ", "--XyZ", 400),
        ])
    func multipartRefusals(type: String, body: String, status: Int) {
        let error = refusal { () throws(HTTPError) in _ = try request(type, body).decodeForm() }
        #expect(error?.status.code == status, "\(body.prefix(60).debugDescription)")
    }

    @Test("multipart: a text part that is not UTF-8 is a 400 naming its field")
    func multipartInvalidUTF8() {
        var body = Array("--XyZ\r\nContent-Disposition: form-data; name=\"note\"\r\n\r\n".utf8)
        body += [0xC3, 0x28]
        body += Array("\r\n--XyZ--\r\n".utf8)
        let error = refusal { () throws(HTTPError) in
            _ = try request("multipart/form-data; boundary=XyZ", body).decodeForm()
        }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "note")
    }

    @Test("multipart limits: a huge part header block, a part over the part size, too many parts: 413")
    func multipartLimits() {
        let limits = BodyLimits(maxFields: 3, maxPartSize: 100, maxPartHeaderSize: 256)
        let hugeHeader = Self.multipart([
            "Content-Disposition: form-data; name=\"a\"\r\nX-Pad: " + String(repeating: "p", count: 1000) + "\r\n\r\nx"
        ])
        let bigPart = Self.multipart([
            "Content-Disposition: form-data; name=\"big\"\r\n\r\n" + String(repeating: "x", count: 500)
        ])
        let many = Self.multipart((0..<5).map { "Content-Disposition: form-data; name=\"f\($0)\"\r\n\r\nx" })
        for (name, body) in [("header", hugeHeader), ("part", bigPart), ("many", many)] {
            let error = refusal { () throws(HTTPError) in
                _ = try request("multipart/form-data; boundary=XyZ", body).decodeForm(limits: limits)
            }
            #expect(error?.status == .contentTooLarge, "\(name)")
        }
        let error = refusal { () throws(HTTPError) in
            _ = try request("multipart/form-data; boundary=XyZ", bigPart).decodeForm(limits: limits)
        }
        #expect(error?.field == "big")
    }

    struct Note: Decodable, Equatable {
        var title: String
        var tags: [String]
        var pinned: Bool?
    }

    @Test("JSON: decoded into the app's type; application/json and +json types")
    func json() throws {
        let note = try request("application/json; charset=utf-8", #"{"title":"Milk","tags":["a"]}"#).decodeJSON(
            Note.self)
        #expect(note == Note(title: "Milk", tags: ["a"], pinned: nil))
        let vendor = try request("application/vnd.notes+json", #"{"title":"x","tags":[],"pinned":true}"#)
            .decodeJSON(Note.self)
        #expect(vendor.pinned == true)
    }

    @Test("JSON refusals: wrong type 415; a missing or mistyped field 422 naming it; malformed 400")
    func jsonRefusals() {
        let form = failure { _ = try request(MediaType.urlEncodedForm, "a=b").decodeJSON(Note.self) }
        #expect(form?.status == .unsupportedMediaType)
        let missing = failure { _ = try request(MediaType.json, #"{"tags":[]}"#).decodeJSON(Note.self) }
        #expect(missing?.status == .unprocessableContent)
        #expect(missing?.fieldErrors.map(\.field) == ["title"])
        let mistyped = failure { _ = try request(MediaType.json, #"{"title":"x","tags":[1]}"#).decodeJSON(Note.self) }
        #expect(mistyped?.status == .unprocessableContent)
        #expect(mistyped?.fieldErrors.map(\.field) == ["tags.0"])
        let malformed = failure { _ = try request(MediaType.json, #"{"title":"#).decodeJSON(Note.self) }
        #expect(malformed?.status == .badRequest)
        let invalid = failure { _ = try request(MediaType.json, [0x22, 0xFF, 0x22]).decodeJSON(String.self) }
        #expect(invalid?.status == .badRequest)
    }

    struct Workout: Decodable {
        var reps: Int
        var sets: UInt8
        var weight: Double
    }

    @Test(
        "JSON: a number that does not fit its field is a 422 naming the field",
        arguments: [
            (#"{"reps":3.5,"sets":1,"weight":1}"#, "reps"), (#"{"reps":1,"sets":300,"weight":1}"#, "sets"),
            (#"{"reps":1,"sets":-1,"weight":1}"#, "sets"), (#"{"reps":1e40,"sets":1,"weight":1}"#, "reps"),
            (#"{"reps":"3","sets":1,"weight":1}"#, "reps"), (#"{"reps":1,"sets":1,"weight":"x"}"#, "weight"),
        ])
    func jsonNumberMismatch(body: String, field: String) {
        let error = failure { _ = try request(MediaType.json, body).decodeJSON(Workout.self) }
        #expect(error?.status == .unprocessableContent, "\(body)")
        #expect(error?.fieldErrors.map(\.field) == [field], "\(body)")
    }

    @Test("JSON bombs: nesting past the depth is a 400 before decoding; past the size a 413")
    func jsonBombs() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let error = failure {
            _ = try request(MediaType.json, deep).decodeJSON([String].self, limits: BodyLimits(maxJSONSize: 1 << 20))
        }
        #expect(error?.status == .badRequest)
        #expect(error?.message.contains("nested") == true)
        // Brackets inside strings are not nesting.
        let quoted = #"{"title":"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[","tags":[]}"#
        #expect((try? request(MediaType.json, quoted).decodeJSON(Note.self))?.title.count == 48)
        let big = failure {
            _ = try request(MediaType.json, "\"" + String(repeating: "x", count: 70_000) + "\"").decodeJSON(String.self)
        }
        #expect(big?.status == .contentTooLarge)
    }

    @Test("file names: directories, dots, controls and bidi overrides removed, cut at 255 bytes")
    func fileNames() {
        #expect(FileName.sanitized("C:\\Users\\me\\report.pdf") == "report.pdf")
        #expect(FileName.sanitized("../../.hidden") == "hidden")
        #expect(FileName.sanitized("a\u{0}b\u{7}c\u{9B}.txt") == "abc.txt")
        #expect(FileName.sanitized("..") == "upload")
        #expect(FileName.sanitized(String(repeating: "é", count: 200)).utf8.count == 254)
    }
}
