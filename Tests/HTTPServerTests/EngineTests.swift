// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerEngine
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import TabServerWeb
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Answers with what it received, one fact per line, so tests can see what the engine
/// passed on. A form body is decoded as the app decodes it (`decodeForm`): a body the web
/// layer refuses answers with its status.
struct EchoResponder: ImmediateResponder {
    func respond(to request: HTTPRequest) -> HTTPResponse {
        var lines = ["method=\(request.method)", "path=\(request.path)"]
        for (name, value) in request.query {
            lines.append(
                "query \(name)=\(value.unicodeScalars.map { $0.value < 32 ? "\\u{\($0.value)}" : String($0) }.joined())"
            )
        }
        if !request.body.isEmpty {
            lines.append("body bytes=\(request.body.count)")
            do {
                for (name, value) in try request.decodeForm().fields { lines.append("form \(name)=\(value)") }
            } catch {
                return .text("\(error.message)\n", status: error.status)
            }
        }
        var headers = HTTPHeaders()
        headers.add("Content-Type", "text/plain; charset=utf-8")
        return HTTPResponse(
            status: .ok, headers: headers, body: .bytes(Array((lines.joined(separator: "\n") + "\n").utf8)))
    }
}

/// A live engine on a free loopback port for the duration of one test.
func withEngine(
    maxBody: Int = 1024, _ body: (HTTPServer) throws -> Void
) throws {
    let configuration = HTTPServerConfiguration(
        host: "127.0.0.1", port: 0, threads: 2, connectionLimit: 64, connectionTimeout: .seconds(5),
        memoryPerConnection: 8192,
        maxBodySize: maxBody, shutdownGracePeriod: .seconds(3))
    let server = try HTTPServer(
        configuration: configuration, responder: EchoResponder(), accessLog: nil)
    defer { server.shutdown() }
    try body(server)
}

@Suite("HTTP engine on a real socket")
struct EngineTests {
    @Test("port 0 binds a real port and keep-alive serves several requests on one connection")
    func keepAlive() throws {
        try withEngine { server in
            #expect(server.port > 0)
            let connection = try #require(RawHTTPConnection(port: server.port))
            for index in 1...3 {
                connection.send("GET /item/\(index)?q=\(index) HTTP/1.1\r\nHost: test\r\n\r\n")
                let response = try #require(connection.readResponse())
                #expect(response.status == 200)
                #expect(response.body.contains("path=/item/\(index)"))
                #expect(response.body.contains("query q=\(index)"))
                #expect(response.headers["connection"]?.lowercased() != "close")
            }
        }
    }

    @Test("a query splits at each &, skips empty pairs, gives a bare name an empty value, and decodes + and %")
    func queryPairs() throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send("GET /find?&a=1&&b&c=x+y%21&=v& HTTP/1.1\r\nHost: test\r\n\r\n")
            let response = try #require(connection.readResponse())
            #expect(response.status == 200)
            let lines = response.body.split(separator: "\n").filter { $0.hasPrefix("query ") }
            #expect(lines == ["query a=1", "query b=", "query c=x y!", "query =v"])
        }
    }

    @Test("HEAD answers headers with the GET length and no body")
    func head() throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send("HEAD /x HTTP/1.1\r\nHost: test\r\n\r\n")
            let response = try #require(connection.readResponse(headRequest: true))
            #expect(response.status == 200)
            #expect(Int(response.headers["content-length"] ?? "0")! > 0)
            // The same connection still works, proving no stray body bytes were sent.
            connection.send("GET /after HTTP/1.1\r\nHost: test\r\n\r\n")
            #expect(connection.readResponse()?.body.contains("path=/after") == true)
        }
    }

    @Test(
        "ambiguous framing is refused with 400 and the connection closed",
        arguments: [
            "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n5\r\na=b&c\r\n0\r\n\r\n",
            "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nContent-Length: 3\r\n\r\na=b",
            "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nContent-Length: 7\r\n\r\na=bc=de",
        ])
    func ambiguousFraming(request: String) throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(request)
            let response = try #require(connection.readResponse())
            #expect(response.status == 400)
            #expect(response.headers["connection"]?.lowercased() == "close")
            #expect(connection.isClosedByPeer())
            // And the server keeps serving.
            let next = try #require(RawHTTPConnection(port: server.port))
            next.send("GET /ok HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(next.readResponse()?.status == 200)
        }
    }

    @Test("HTTP/1.1 without Host is a 400")
    func missingHost() throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send("GET / HTTP/1.1\r\n\r\n")
            #expect(connection.readResponse()?.status == 400)
        }
    }

    @Test("a declared body over the limit answers 413 before it is sent")
    func declaredTooLarge() throws {
        try withEngine(maxBody: 100) { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n"
            )
            let response = try #require(connection.readResponse())
            #expect(response.status == 413)
        }
    }

    @Test("a chunked body that grows over the limit answers 413 as it arrives")
    func chunkedTooLarge() throws {
        try withEngine(maxBody: 100) { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            let chunk = "a=" + String(repeating: "x", count: 78)
            var request =
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
            for _ in 0..<3 { request += "\(String(chunk.utf8.count, radix: 16))\r\n\(chunk)\r\n" }
            request += "0\r\n\r\n"
            connection.send(request)
            let response = try #require(connection.readResponse())
            #expect(response.status == 413)
        }
    }

    @Test("a body of any type reaches the responder whole: the engine frames, the web layer decodes")
    func anyBodyType() throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
            let response = try #require(connection.readResponse())
            // The echo decodes forms only, as the app's own routes do: JSON is refused there.
            #expect(response.status == 415)
            #expect(response.body.contains("application/x-www-form-urlencoded"))
        }
    }

    @Test("a body on GET is refused with 400")
    func bodyOnGet() throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(
                "GET /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\n\r\na=b"
            )
            #expect(connection.readResponse()?.status == 400)
        }
    }

    @Test("urlencoded, chunked and multipart form bodies arrive as fields")
    func formBodies() throws {
        try withEngine { server in
            let plain = try #require(RawHTTPConnection(port: server.port))
            let body = "tab=music&note=caf%C3%A9+au+lait&empty="
            plain.send(
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded; charset=UTF-8\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            )
            let response = try #require(plain.readResponse())
            #expect(response.body.contains("form tab=music"))
            #expect(response.body.contains("form note=café au lait"))
            #expect(response.body.contains("form empty="))

            let chunked = try #require(RawHTTPConnection(port: server.port))
            chunked.send(
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n4\r\na=12\r\n4\r\n&b=3\r\n0\r\n\r\n"
            )
            let chunkedResponse = try #require(chunked.readResponse())
            #expect(chunkedResponse.body.contains("form a=12"))
            #expect(chunkedResponse.body.contains("form b=3"))

            let multipart = try #require(RawHTTPConnection(port: server.port))
            let parts =
                "--XyZ\r\nContent-Disposition: form-data; name=\"tab\"\r\n\r\nmovies\r\n--XyZ\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\nabc\r\n--XyZ--\r\n"
            multipart.send(
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=XyZ\r\nContent-Length: \(parts.utf8.count)\r\n\r\n\(parts)"
            )
            let multipartResponse = try #require(multipart.readResponse())
            #expect(multipartResponse.body.contains("form tab=movies"))
            #expect(multipartResponse.body.contains("form csrf=abc"))
        }
    }

    @Test("Expect: 100-continue gets its interim answer and then the response")
    func expectContinue() throws {
        try withEngine { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(
                "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"
            )
            let interim = try #require(connection.readResponse())
            #expect(interim.status == 100)
            connection.send("a=b")
            let response = try #require(connection.readResponse())
            #expect(response.status == 200)
            #expect(response.body.contains("form a=b"))
        }
    }

    @Test("a NUL or control byte in the target, raw or percent-encoded, is a 400 (never truncated)")
    func nulInTarget() throws {
        try withEngine { server in
            for target in [
                "/q?a=x%00y", "/css/app.css%00.txt", "/healthz%0a10.6.6.6%20POST%20/admin", "/a%7fb", "/a%zz",
            ] {
                let connection = try #require(RawHTTPConnection(port: server.port))
                connection.send("GET \(target) HTTP/1.1\r\nHost: t\r\n\r\n")
                let response = try #require(connection.readResponse(), "\(target)")
                #expect(response.status == 400, "\(target)")
                #expect(!response.body.contains("path="), "\(target) never reached the responder")
            }
        }
    }

    @Test("oversized headers and URLs are refused, and the server keeps serving")
    func oversizedHead() throws {
        try withEngine { server in
            // Each refusal is exactly one well-formed answer, then the close.
            for (request, status) in [
                ("GET / HTTP/1.1\r\nHost: t\r\nX-Big: \(String(repeating: "a", count: 20_000))\r\n\r\n", 431),
                ("GET /\(String(repeating: "b", count: 20_000)) HTTP/1.1\r\nHost: t\r\n\r\n", 414),
            ] {
                let connection = try #require(RawHTTPConnection(port: server.port))
                connection.send(request)
                let (bytes, closed) = connection.readUntilClosed()
                let (statuses, problem) = parseResponses(bytes)
                #expect(problem == nil, "\(request.prefix(20))")
                #expect(statuses == [status], "\(request.prefix(20))")
                #expect(closed, "\(request.prefix(20))")
            }

            let fine = try #require(RawHTTPConnection(port: server.port))
            fine.send("GET /fine HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(fine.readResponse()?.status == 200)
        }
    }

    @Test("shutdown finishes the request in flight with Connection: close, then refuses connections")
    func gracefulShutdown() throws {
        let responder = GatedResponder()
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 2, connectionLimit: 64, connectionTimeout: .seconds(5),
            shutdownGracePeriod: .seconds(5))
        let server = try HTTPServer(configuration: configuration, responder: responder, accessLog: nil)
        defer { server.shutdown() }
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        // The responder holds the request until it is let go: shut down while it is in flight.
        #expect(waitUntil(.seconds(5)) { server.inFlightRequests == 1 })
        let port = server.port
        let stopped = StopFlag()
        let box = ServerBox(server)
        DispatchQueue.global().async {
            box.server.shutdown()
            stopped.store(true)
        }
        #expect(waitUntil(.seconds(5)) { server.state == .draining }, "shutdown began")
        #expect(server.inFlightRequests == 1 && !stopped.load(), "the drain waits for the request in flight")
        responder.open()
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(response.headers["connection"]?.lowercased() == "close")
        #expect(waitUntil(.seconds(5)) { stopped.load() })
        #expect(server.state == .stopped)
        #expect(RawHTTPConnection(port: port) == nil)
    }
}

/// Carries the server into a `@Sendable` closure (it is `Sendable` already; this keeps
/// the closure from capturing the test's non-Sendable context).
struct ServerBox: Sendable {
    let server: HTTPServer
    init(_ server: HTTPServer) { self.server = server }
}

final class StopFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func store(_ flag: Bool, ordering: Void = ()) { value.store(flag, ordering: .sequentiallyConsistent) }
    func load(ordering: Void = ()) -> Bool { value.load(ordering: .sequentiallyConsistent) }
}
