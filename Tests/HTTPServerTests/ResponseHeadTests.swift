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

    @Test("breaksLine finds CR, LF and NUL at every place in values of every length, and nothing else")
    func lineBreaks() {
        func reference(_ bytes: [UInt8]) -> Bool { bytes.contains { $0 == 13 || $0 == 10 || $0 == 0 } }
        // Bytes around the word test's edges: the three it looks for, other controls, the
        // first visible byte, DEL and bytes of UTF-8.
        let probes: [UInt8] = [0, 10, 13, 9, 1, 0x1F, 0x20, 0x7F, 0x80, 0xC3, 0xFF]
        var checked = 0
        for length in 0...40 {
            let plain = [UInt8](repeating: UInt8(ascii: "a"), count: length)
            #expect(!plain.withUnsafeBufferPointer(ResponseHead.breaksLine))
            for position in 0..<length {
                for probe in probes {
                    var bytes = plain
                    bytes[position] = probe
                    // A second byte after it: a borrow from the first must not hide or fake one.
                    if position + 1 < length { bytes[position + 1] = probes[(position + Int(probe)) % probes.count] }
                    let found = bytes.withUnsafeBufferPointer(ResponseHead.breaksLine)
                    #expect(found == reference(bytes), "\(bytes)")
                    checked += 1
                }
            }
        }
        #expect(checked == 9_020)
    }

    @Test("isToken agrees with isTokenByte for every byte at every place in names of every length")
    func tokenNames() {
        var checked = 0
        for length in 1...24 {
            // A name of letters, digits and dashes (the fast path's words).
            let plain = (0..<length).map { Array("Ab-9".utf8)[$0 % 4] }
            #expect(plain.withUnsafeBufferPointer(ResponseHead.isToken))
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var bytes = plain
                    bytes[position] = byte
                    #expect(bytes.withUnsafeBufferPointer(ResponseHead.isToken) == ResponseHead.isTokenByte(byte))
                    checked += 1
                }
            }
        }
        #expect(checked == 300 * 256)
    }
}
