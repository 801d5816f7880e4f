// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerEngine

/// Answers with fields no responder should be able to send as they are: the engine's own
/// (in any case), names that are not tokens, values that would split the response, and
/// valid ones that look like them.
private struct HeaderFieldsResponder: ImmediateResponder {
    static let fields: [(String, String)] = [
        ("X-Before", "1"),
        ("content-LENGTH", "999"),
        ("Transfer-Encoding", "chunked"),
        ("CONNECTION", "close"),
        ("date", "Thu, 01 Jan 1970 00:00:00 GMT"),
        ("Keep-Alive", "timeout=1"),
        ("Bad Name", "space in the name"),
        ("Bad:Name", "colon in the name"),
        ("", "empty name"),
        ("Caf\u{E9}", "a byte over 127 in the name"),
        ("X-Split", "a\r\nX-Injected: 1"),
        ("X-Bare-LF", "a\nX-Injected: 2"),
        ("X-Nul", "a\u{0}b"),
        // Valid: every tchar symbol, a tab in a value, names one letter off the engine's.
        ("X-!#$%&'*+-.^_`|~09", "tab\there"),
        ("Content-Lengths", "not the engine's"),
        ("Dates", "not the engine's either"),
        ("Keep_Alive", "an underscore is not a dash"),
        ("X-After", "2"),
    ]

    func respond(to request: HTTPRequest) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (name, value) in Self.fields { headers.add(name, value) }
        return HTTPResponse(status: .ok, headers: headers, body: .bytes(Array("body".utf8)))
    }

    func prepared(for request: HTTPRequest) -> ResponseCache? { request.path == "/prepared" ? ResponseCache() : nil }
}

@Suite("Response heads the engine writes")
struct ResponseHeadTests {
    @Test(
        "the engine's own fields, names that are not tokens and values with CR, LF or NUL are left out; the rest pass as they are",
        arguments: ["/plain", "/prepared"])
    func fieldsChecked(path: String) throws {
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 1, connectionLimit: 8, connectionTimeout: .seconds(5),
            memoryPerConnection: 8192, maxBodySize: 1024, shutdownGracePeriod: .seconds(3))
        let server = try HTTPServer(configuration: configuration, responder: HeaderFieldsResponder(), accessLog: nil)
        defer { server.shutdown() }
        let connection = try #require(RawHTTPConnection(port: server.port))
        // Twice on one connection: a prepared head is made once and sent again.
        for _ in 0..<2 {
            connection.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
            let response = try #require(connection.readResponse())
            #expect(response.status == 200)
            #expect(response.body == "body")
            let names = response.headers.map { $0.name }
            #expect(
                names == [
                    "X-Before", "X-!#$%&'*+-.^_`|~09", "Content-Lengths", "Dates", "Keep_Alive", "X-After",
                    "Content-Length", "Date",
                ])
            #expect(response.headers["content-length"] == "4")
            #expect(response.headers["x-!#$%&'*+-.^_`|~09"] == "tab\there")
            #expect(response.headers["x-injected"] == nil)
            #expect(response.headers["connection"] == nil)
        }
    }

    @Test("isTokenByte is RFC 9110's tchar, byte for byte")
    func tokenBytes() {
        let symbols = Set("!#$%&'*+-.^_`|~".utf8)
        for byte in UInt8.min...UInt8.max {
            let expected =
                (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || symbols.contains(byte)
            #expect(ResponseHead.isTokenByte(byte) == expected, "byte \(byte)")
        }
    }
}
