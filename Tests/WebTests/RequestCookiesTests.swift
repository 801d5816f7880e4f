// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerWeb
import Testing

@Suite("HTTPRequest cookies")
struct RequestCookiesTests {
    static func request(_ cookieHeaders: String...) -> HTTPRequest {
        var headers = HTTPHeaders()
        headers.add("Accept", "text/html")
        for value in cookieHeaders { headers.add("cookie", value) }
        return HTTPRequest(method: .get, path: "/", headers: headers)
    }

    @Test("a 128-bit cookie is read where it is stored: absent, malformed, or its value as the text form decodes")
    func bits128() throws {
        // 22 characters of base64url: 0x00010203…0e0f, the form a session id takes.
        let text = "AAECAwQFBgcICQoLDA0ODw"
        let request = Self.request("x=1; sid= \"\(text)\" ; sid=BBB", "other=\(text)")
        #expect(request.cookie128("sid") == .value(high: 0x0001_0203_0405_0607, low: 0x0809_0a0b_0c0d_0e0f))
        #expect(request.cookie128("other") == .value(high: 0x0001_0203_0405_0607, low: 0x0809_0a0b_0c0d_0e0f))
        #expect(request.cookie128("none") == .absent)
        #expect(request.cookie128("x") == .malformed)
        let malformed = [String(text.dropLast()), text + "A", "AAECAwQFBgcICQoLDA0OD+", "AAECAwQFBgcICQoLDA0ODx", ""]
        for value in malformed {
            #expect(Self.request("sid=\(value)").cookie128("sid") == .malformed, "\(value)")
        }
    }

    @Test("several cookies in one header")
    func several() {
        let request = Self.request("a=1; b=two; session=abc")
        #expect(request.cookie("a") == "1")
        #expect(request.cookie("b") == "two")
        #expect(request.cookie("session") == "abc")
        #expect(request.cookie("c") == nil)
    }

    @Test("spaces around pairs are tolerated")
    func spaces() {
        let request = Self.request("  a=1 ;b=2;   c=3  ")
        #expect(request.cookie("a") == "1")
        #expect(request.cookie("b") == "2")
        #expect(request.cookie("c") == "3")
    }

    @Test("a quoted value is unquoted; a lone quote is kept")
    func quoted() {
        let request = Self.request("q=\"hello\"; lone=\"; empty=\"\"")
        #expect(request.cookie("q") == "hello")
        #expect(request.cookie("lone") == "\"")
        #expect(request.cookie("empty") == "")
    }

    @Test("repeated Cookie headers are all searched, first match wins")
    func repeatedHeaders() {
        let request = Self.request("a=1", "b=2; a=3", "c=4")
        #expect(request.cookie("a") == "1")
        #expect(request.cookie("b") == "2")
        #expect(request.cookie("c") == "4")
    }

    @Test("header names match case-insensitively")
    func headerNameCase() {
        var headers = HTTPHeaders()
        headers.add("Cookie", "a=1")
        #expect(HTTPRequest(method: .get, path: "/", headers: headers).cookie("a") == "1")
    }

    @Test("malformed pairs are skipped, never an error")
    func malformed() {
        let request = Self.request("garbage; ;; =nameless; a=1; b; c==x; d=")
        #expect(request.cookie("a") == "1")
        #expect(request.cookie("garbage") == nil)
        #expect(request.cookie("b") == nil)
        #expect(request.cookie("c") == "=x")
        #expect(request.cookie("d") == "")
    }

    @Test("names are compared whole, not by prefix or suffix")
    func prefixConfusion() {
        #expect(Self.request("xsession=1; session=2").cookie("session") == "2")
        #expect(Self.request("session_old=1; session=2").cookie("session") == "2")
        #expect(Self.request("sess=1; session=2").cookie("session") == "2")
        #expect(Self.request("sessionx=1").cookie("session") == nil)
        #expect(Self.request("session=2; xsession=1").cookie("xsession") == "1")
    }

    @Test("names are case-sensitive")
    func nameCase() {
        let request = Self.request("Session=upper; session=lower")
        #expect(request.cookie("session") == "lower")
        #expect(request.cookie("Session") == "upper")
    }

    @Test("no Cookie header gives nil")
    func absent() {
        #expect(HTTPRequest(method: .get, path: "/").cookie("session") == nil)
        #expect(Self.request("").cookie("session") == nil)
    }
}
