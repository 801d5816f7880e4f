// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Around HTTPS: the plain redirect port (`--redirect-http-port`) and
/// `Strict-Transport-Security` (`--hsts-max-age`), with real sockets and curl against a
/// server started on loopback with the test CA of `TLSServerTests`.
@Suite("TLS redirect port and HSTS", .serialized)
struct TLSRedirectTests {
    private func startServer(configure: (inout AppConfiguration) -> Void = { _ in }) throws -> AppServer {
        let certificates = try TLSServerTests.Certificates.shared.get()
        let app = try makeApp {
            $0.http.tls = TLSSettings(certificatePath: certificates.certificate, keyPath: certificates.key)
            $0.http.tls?.redirectHTTPPort = 0
            $0.http.headerTimeout = .seconds(1)
            $0.accessLog = false
            configure(&$0)
        }
        return try app.start()
    }

    /// One request on a new connection to the redirect port: its answer.
    private func ask(_ port: Int, _ request: String) throws -> TestResponse {
        let connection = try #require(RawHTTPConnection(port: port))
        #expect(connection.send(request))
        return try #require(connection.readResponse())
    }

    @Test("every request is answered 308 to the same path and query on the HTTPS port, without a session")
    func redirects() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let redirectPort = try #require(server.redirectPort)
        #expect(redirectPort != server.port)
        let connection = try #require(RawHTTPConnection(port: redirectPort))
        // Two on one connection: keep-alive works for requests without a body.
        #expect(connection.send("GET /tabs/tv?x=1&y=%20a HTTP/1.1\r\nHost: LocalHost:\(redirectPort)\r\n\r\n"))
        let first = try #require(connection.readResponse())
        #expect(first.status == 308)
        #expect(first.location == "https://localhost:\(server.port)/tabs/tv?x=1&y=%20a")
        #expect(first.headers["set-cookie"] == nil)
        #expect(first.headers["strict-transport-security"] == nil)
        #expect(connection.send("HEAD / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"))
        let second = try #require(connection.readResponse(headRequest: true))
        #expect(second.status == 308)
        #expect(second.location == "https://127.0.0.1:\(server.port)/")
        // The place it points to answers over TLS.
        let certificates = try TLSServerTests.Certificates.shared.get()
        let followed = TLSServerTests.run([
            "/usr/bin/curl", "--silent", "--location", "--cacert", certificates.ca, "--max-time", "10", "--output",
            "/dev/null", "--write-out", "%{http_code} %{url_effective}",
            "http://127.0.0.1:\(redirectPort)/healthz?probe=1",
        ])
        #expect(followed.output == "200 https://127.0.0.1:\(server.port)/healthz?probe=1", "\(followed.output)")
    }

    @Test("IPv6 literals, absolute targets and OPTIONS * keep their host; a public origin replaces it")
    func hosts() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let port = try #require(server.redirectPort)
        let https = server.port
        #expect(try ask(port, "GET /a HTTP/1.1\r\nHost: [::1]:80\r\n\r\n").location == "https://[::1]:\(https)/a")
        #expect(
            try ask(port, "GET http://Shop.Test:80/b?c=d HTTP/1.1\r\nHost: shop.test:80\r\n\r\n").location
                == "https://shop.test:\(https)/b?c=d")
        #expect(
            try ask(port, "OPTIONS * HTTP/1.1\r\nHost: shop.test\r\n\r\n").location == "https://shop.test:\(https)/")
        server.shutdown()

        let behindOrigin = try startServer { $0.publicOrigin = try? PublicOrigin("https://shop.example.com") }
        defer { behindOrigin.shutdown() }
        let originPort = try #require(behindOrigin.redirectPort)
        let answer = try ask(originPort, "GET /tabs/tv?q=1 HTTP/1.1\r\nHost: 192.168.1.20:\(originPort)\r\n\r\n")
        #expect(answer.status == 308)
        #expect(answer.location == "https://shop.example.com/tabs/tv?q=1")
    }

    @Test(
        "a missing or malformed Host is a 400, never a redirect elsewhere",
        arguments: [
            "GET / HTTP/1.0\r\n\r\n", "GET / HTTP/1.1\r\nHost: evil.test/x\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: evil.test@x\r\n\r\n", "GET / HTTP/1.1\r\nHost: a b\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: [zz::1]\r\n\r\n", "GET / HTTP/1.1\r\nHost: shop.test:8o\r\n\r\n",
            "GET / HTTP/1.1\r\nHost: .test\r\n\r\n", "GET / HTTP/1.1\r\nHost:\r\n\r\n",
            "GET //evil.test/ HTTP/1.1\r\nHost: shop.test\r\n\r\n",
        ])
    func badHosts(request: String) throws {
        let server = try startServer()
        defer { server.shutdown() }
        let redirectPort = try #require(server.redirectPort)
        let answer = try ask(redirectPort, request)
        if request.hasPrefix("GET //") {
            // A path that starts with two slashes stays a path on the HTTPS origin.
            #expect(answer.location == "https://shop.test:\(server.port)//evil.test/")
        } else {
            #expect(answer.status == 400, "\(request.debugDescription): \(answer.status) \(answer.location ?? "")")
            #expect(answer.location == nil)
        }
    }

    @Test("a request with a body is answered from its head (even past --max-body), the body never read")
    func bodies() throws {
        let server = try startServer { $0.http.maxBodySize = 1024 }
        defer { server.shutdown() }
        let redirectPort = try #require(server.redirectPort)
        let connection = try #require(RawHTTPConnection(port: redirectPort))
        #expect(
            connection.send(
                "POST /select HTTP/1.1\r\nHost: shop.test\r\nContent-Length: 10000000\r\nContent-Type: text/plain\r\n\r\n"
            ))
        #expect(connection.send(String(repeating: "x", count: 4096)))
        let answer = try #require(connection.readResponse())
        #expect(answer.status == 308)
        #expect(answer.location == "https://shop.test:\(server.port)/select")
        #expect(answer.headers["connection"] == "close")
        #expect(waitUntil(.seconds(5)) { connection.isClosedByPeer() })
    }

    @Test("the redirect port keeps the header deadline: a head that never ends gets 408 and the close")
    func deadline() throws {
        let server = try startServer()
        defer { server.shutdown() }
        let redirectPort = try #require(server.redirectPort)
        // The client waits longer than any load could delay the cut: only the deadline
        // answers 408, so the answer itself says the head was cut by it.
        let connection = try #require(RawHTTPConnection(port: redirectPort, timeoutSeconds: 60))
        #expect(connection.send("GET / HTTP/1.1\r\nHost: shop.test\r\n"))
        let started = ContinuousClock.now
        let answer = connection.readResponse()
        let waited = ContinuousClock.now - started
        #expect(answer?.status == 408, "cut after \(waited) with a 1 s header deadline")
        print("redirect port: a head that never ends was cut after \(waited) (deadline 1 s)")
        #expect(waitUntil(.seconds(5)) { connection.isClosedByPeer() })
    }

    @Test("a redirect port already taken stops the start, naming it")
    func portTaken() throws {
        let first = try startServer()
        defer { first.shutdown() }
        let taken = try #require(first.redirectPort)
        #expect {
            _ = try startServer { $0.http.tls?.redirectHTTPPort = taken }
        } throws: { error in
            "\(error)".contains("redirect port \(taken)")
        }
    }

    @Test("Strict-Transport-Security is sent on every TLS answer, includeSubDomains when asked, never on plain HTTP")
    func strictTransportSecurity() throws {
        let certificates = try TLSServerTests.Certificates.shared.get()
        func headers(_ url: String, http2: Bool = false) -> String {
            TLSServerTests.run([
                "/usr/bin/curl", http2 ? "--http2" : "--http1.1", "--silent", "--cacert", certificates.ca, "--max-time",
                "10",
                "--dump-header", "-", "--output", "/dev/null", url,
            ]).output.lowercased()
        }
        let plainTLS = try startServer()
        #expect(!headers("https://127.0.0.1:\(plainTLS.port)/healthz").contains("strict-transport-security"))
        plainTLS.shutdown()

        let server = try startServer {
            $0.http.tls?.strictTransportSecurity = StrictTransportSecurity(maxAge: 31_536_000)
        }
        defer { server.shutdown() }
        for path in ["/healthz", "/tabs/music", "/css/app.css", "/no-such-page"] {
            let head = headers("https://127.0.0.1:\(server.port)\(path)")
            #expect(head.contains("\r\nstrict-transport-security: max-age=31536000\r\n"), "\(path): \(head)")
            let overHTTP2 = headers("https://127.0.0.1:\(server.port)\(path)", http2: true)
            #expect(overHTTP2.hasPrefix("http/2 "), "\(path): \(overHTTP2)")
            #expect(
                overHTTP2.contains("\r\nstrict-transport-security: max-age=31536000\r\n"), "h2 \(path): \(overHTTP2)")
        }
        let redirectPort = try #require(server.redirectPort)
        let redirect = headers("http://127.0.0.1:\(redirectPort)/healthz")
        #expect(redirect.hasPrefix("http/1.1 308"))
        #expect(!redirect.contains("strict-transport-security"))
        server.shutdown()

        let subdomains = try startServer {
            $0.http.tls?.strictTransportSecurity = StrictTransportSecurity(maxAge: 600, includeSubDomains: true)
        }
        defer { subdomains.shutdown() }
        #expect(
            headers("https://127.0.0.1:\(subdomains.port)/healthz").contains(
                "strict-transport-security: max-age=600; includesubdomains\r\n"))
    }

    @Test("the flags: parsed into the TLS settings; without TLS, a bad value or an order that cannot work, refused")
    func flags() throws {
        let tls = ["--tls-certificate", "/c.pem", "--tls-key", "/k.pem"]
        func parse(_ arguments: [String]) throws -> AppConfiguration {
            guard case .run(let configuration) = try AppConfiguration.parse(arguments: arguments, environment: [:])
            else { throw ConfigurationError("not a run") }
            return configuration
        }
        let parsed = try parse(
            tls + ["--redirect-http-port", "8080", "--port", "8443", "--hsts-max-age", "600"]
                + ["--hsts-include-subdomains", "on"])
        #expect(parsed.http.tls?.redirectHTTPPort == 8080)
        #expect(
            parsed.http.tls?.strictTransportSecurity == StrictTransportSecurity(maxAge: 600, includeSubDomains: true))
        #expect(try parse(tls).http.tls?.strictTransportSecurity == nil)
        #expect(try parse(tls).http.tls?.redirectHTTPPort == nil)
        let refused: [([String], String)] = [
            (["--redirect-http-port", "8080"], "needs --tls-certificate"),
            (["--hsts-max-age", "600"], "needs --tls-certificate"),
            (tls + ["--hsts-include-subdomains", "on"], "needs --hsts-max-age"),
            (tls + ["--redirect-http-port", "http"], "not a whole number"),
            (tls + ["--redirect-http-port", "8443", "--port", "8443"], "is the HTTPS port"),
            (tls + ["--hsts-max-age", "-1"], "not a whole number"),
            (tls + ["--hsts-max-age", "60", "--hsts-include-subdomains", "maybe"], "not on or off"),
        ]
        for (arguments, message) in refused {
            #expect {
                _ = try parse(arguments)
            } throws: { error in
                "\(error)".contains(message)
            }
        }
    }
}
