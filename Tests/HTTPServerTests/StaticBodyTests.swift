// SPDX-License-Identifier: Apache-2.0
import TabServerEngine
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Answers `/big` with a 2 MiB body and `/small` with a 1 KiB one, both shared and
/// marked cacheable like a static file (the engine sends large ones with sendfile).
struct StaticResponder: ImmediateResponder {
    static let big = pattern(2 * 1024 * 1024, seed: 7)
    static let small = pattern(1024, seed: 3)
    let bigResponse: HTTPResponse
    let smallResponse: HTTPResponse
    let bigSlot = ResponseCache()
    let smallSlot = ResponseCache()

    init() {
        func cached(_ text: String) -> HTTPResponse {
            var headers = HTTPHeaders()
            headers.add("Content-Type", "text/plain")
            return HTTPResponse(status: .ok, headers: headers, body: .shared(SharedBytes(Array(text.utf8))))
        }
        bigResponse = cached(Self.big)
        smallResponse = cached(Self.small)
    }

    func respond(to request: HTTPRequest) -> HTTPResponse {
        request.path == "/big" ? bigResponse : smallResponse
    }

    func prepared(for request: HTTPRequest) -> ResponseCache? { request.path == "/big" ? bigSlot : smallSlot }

    /// Printable bytes that differ from offset to offset, so a misplaced chunk shows.
    static func pattern(_ count: Int, seed: Int) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var state = UInt64(seed)
        var bytes = [UInt8](repeating: 0, count: count)
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            bytes[index] = alphabet[Int(state >> 33) % alphabet.count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Where two bodies first differ (a byte offset, or the shorter length), nil if equal: a
/// short message where the bodies are megabytes.
func firstDifference(_ received: String, _ expected: String) -> Int? {
    if received == expected { return nil }
    let (a, b) = (Array(received.utf8), Array(expected.utf8))
    if let index = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) { return index }
    return a.count == b.count ? nil : min(a.count, b.count)
}

@Suite("Static bodies: shared bytes and sendfile")
struct StaticBodyTests {
    func withStaticEngine(_ body: (HTTPServer) throws -> Void) throws {
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 2, connectionLimit: 64, connectionTimeout: .seconds(5),
            memoryPerConnection: 8192, maxBodySize: 1024, shutdownGracePeriod: .seconds(3))
        let server = try HTTPServer(configuration: configuration, responder: StaticResponder(), accessLog: nil)
        defer { server.shutdown() }
        try body(server)
    }

    @Test("a large cached body arrives byte for byte, again and again on one connection; HEAD sends none")
    func largeBodyExact() throws {
        try withStaticEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            for path in ["/big", "/small", "/big", "/big"] {
                connection.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\r\n")
                let response = try #require(connection.readResponse())
                #expect(response.status == 200)
                let expected = path == "/big" ? StaticResponder.big : StaticResponder.small
                #expect(response.headers["content-length"] == String(expected.utf8.count))
                #expect(firstDifference(response.body, expected) == nil, "\(path)")
            }
            connection.send("HEAD /big HTTP/1.1\r\nHost: t\r\n\r\n")
            let head = try #require(connection.readResponse(headRequest: true))
            #expect(head.headers["content-length"] == String(StaticResponder.big.utf8.count))
            connection.send("GET /small HTTP/1.1\r\nHost: t\r\n\r\n")
            let after = try #require(connection.readResponse())
            #expect(firstDifference(after.body, StaticResponder.small) == nil, "no stray body bytes after HEAD")
        }
    }

    @Test("a reader slower than the socket buffer gets the whole body: the send resumes where it stopped")
    func slowReader() throws {
        try withStaticEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 10))
            // 12 MiB asked for at once (more than loopback's socket buffers hold); nothing is
            // read until the server's sends have stalled.
            connection.send(String(repeating: "GET /big HTTP/1.1\r\nHost: t\r\n\r\n", count: 6))
            // Stalled: the socket buffers are full and stop filling for 50 ms.
            var last = -1
            #expect(
                waitUntil(.seconds(5), every: .milliseconds(50)) {
                    let now = connection.unreadBytes
                    defer { last = now }
                    return now > 0 && now == last
                }, "the server's sends stalled")
            #expect(
                connection.unreadBytes < 6 * StaticResponder.big.count, "more than the buffers hold is left to send")
            for _ in 0..<6 {
                let response = try #require(connection.readResponse())
                #expect(firstDifference(response.body, StaticResponder.big) == nil)
            }
        }
    }

    @Test("many connections fetch the large body at once, each complete")
    func concurrentFetches() throws {
        try withStaticEngine { server in
            let connections = (0..<16).compactMap { _ in RawHTTPConnection(port: server.port) }
            #expect(connections.count == 16)
            for connection in connections { connection.send("GET /big HTTP/1.1\r\nHost: t\r\n\r\n") }
            for connection in connections {
                let response = try #require(connection.readResponse())
                #expect(firstDifference(response.body, StaticResponder.big) == nil)
            }
        }
    }
}
