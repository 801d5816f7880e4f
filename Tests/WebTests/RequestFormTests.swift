// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("HTTPRequest forms and Accept-Encoding")
struct RequestFormTests {
    static func post(_ fields: [(name: String, value: String)], query: [(name: String, value: String)] = [])
        -> HTTPRequest
    {
        HTTPRequest(method: .post, path: "/select", query: query, formFields: fields)
    }

    static func accepting(_ values: String...) -> HTTPRequest {
        var headers = HTTPHeaders()
        for value in values { headers.add("Accept-Encoding", value) }
        return HTTPRequest(method: .get, path: "/css/app.css", headers: headers)
    }

    // MARK: requiredField

    @Test("a present field is returned; the first of repeated fields wins")
    func requiredFieldPresent() throws {
        let request = Self.post([("tab", "music"), ("csrf", "t0k3n"), ("tab", "video")])
        #expect(try request.requiredField("tab") == "music")
        #expect(try request.requiredField("csrf") == "t0k3n")
    }

    @Test(
        "a missing or empty field is a 400 naming the field",
        arguments: [[], [("tab", "")], [("Tab", "music")]] as [[(name: String, value: String)]])
    func requiredFieldMissing(fields: [(name: String, value: String)]) {
        let error = #expect(throws: HTTPError.self) { try Self.post(fields).requiredField("tab") }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "tab")
        #expect(error?.message.contains("tab") == true)
    }

    @Test("a query argument does not stand in for a form field")
    func queryDoesNotCount() {
        let error = #expect(throws: HTTPError.self) {
            try Self.post([], query: [("csrf", "from-url")]).requiredField("csrf")
        }
        #expect(error?.field == "csrf")
    }

    // MARK: requiredIntField

    @Test("whole numbers parse", arguments: [("0", 0), ("12", 12), ("-3", -3), ("007", 7)])
    func requiredIntValid(text: String, value: Int) throws {
        #expect(try Self.post([("index", text)]).requiredIntField("index") == value)
    }

    @Test(
        "anything else is a 400 naming the field",
        arguments: ["", "abc", "1.5", " 12", "12 ", "1e3", "0x10", "99999999999999999999999", "١٢"])
    func requiredIntInvalid(text: String) {
        let error = #expect(throws: HTTPError.self) { try Self.post([("index", text)]).requiredIntField("index") }
        #expect(error?.status == .badRequest)
        #expect(error?.field == "index")
        #expect(error?.message.contains("index") == true)
    }

    @Test("a missing integer field is a 400 naming it")
    func requiredIntMissing() {
        let error = #expect(throws: HTTPError.self) { try Self.post([("other", "1")]).requiredIntField("index") }
        #expect(error?.field == "index")
    }

    @Test("a huge bad value is not echoed whole in the message")
    func requiredIntLongValue() {
        let long = String(repeating: "x", count: 10_000)
        let error = #expect(throws: HTTPError.self) { try Self.post([("index", long)]).requiredIntField("index") }
        #expect((error?.message.count ?? .max) < 200)
    }

    // MARK: acceptsGzip

    @Test(
        "Accept-Encoding values that accept gzip",
        arguments: [
            "gzip", "GZIP", "Gzip", " gzip ", "gzip, deflate, br", "br, gzip;q=0.5", "gzip; q=0.001", "gzip;q=1.0",
            "*", "br, *", "*;q=0.1", "*;q=0, gzip", "deflate, gzip;Q=0.8",
        ])
    func acceptsGzip(value: String) {
        #expect(Self.accepting(value).acceptsGzip)
    }

    @Test(
        "Accept-Encoding values that do not",
        arguments: [
            "", "identity", "br", "deflate, br", "gzip;q=0", "gzip; q=0", "gzip;q=0.0", "gzip;q=0.000", "*;q=0",
            "br, gzip;q=0", "*, gzip;q=0", "gzip;q=0, *", "gzipx", "x-gzipped", "gz",
        ])
    func refusesGzip(value: String) {
        #expect(!Self.accepting(value).acceptsGzip)
    }

    @Test("no Accept-Encoding header means no gzip")
    func absent() {
        #expect(!HTTPRequest(method: .get, path: "/").acceptsGzip)
    }

    @Test("repeated Accept-Encoding fields are read as one list")
    func repeatedHeaders() {
        #expect(Self.accepting("br", "gzip").acceptsGzip)
        #expect(!Self.accepting("br", "deflate").acceptsGzip)
        #expect(!Self.accepting("*", "gzip;q=0").acceptsGzip)
    }
}
