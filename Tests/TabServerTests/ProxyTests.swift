// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import TabServerWeb
import Testing

@Suite("Forwarded headers: believed from trusted proxies only")
struct ForwardedHeaderTests {
    @Test("spoofed X-Forwarded-* and Forwarded from an untrusted peer change nothing")
    func spoofing() async throws {
        let client = TestClient(try makeApp().responder)
        client.remoteAddress = "203.0.113.9"
        let response = await client.get(
            "/",
            headers: [
                ("X-Forwarded-Proto", "https"), ("X-Forwarded-Host", "evil.example"), ("X-Forwarded-For", "10.9.9.9"),
                ("X-Forwarded-Prefix", "/evil"), ("Forwarded", "for=10.1.1.1;proto=https;host=evil.example"),
            ])
        #expect(response.status == 303)
        #expect(response.location == "/tabs/featured", "a path, never a foreign host")
        let page = await client.get("/tabs/music", headers: [("X-Forwarded-Proto", "https")])
        #expect(page.headers["set-cookie"]?.contains("Secure") == false)
        let app = try makeApp()
        var request = HTTPRequest(method: .get, path: "/healthz", remoteAddress: "203.0.113.9")
        request.headers.add("X-Forwarded-For", "10.9.9.9")
        #expect(await app.responder.answer(to: request).logNote == nil, "the log keeps the socket peer")
    }

    @Test("X-Forwarded-Proto: https from the trusted proxy makes the cookie Secure; the client is logged")
    func trusted() async throws {
        let app = try makeApp()
        let client = TestClient(app.responder)
        let response = await client.get(
            "/tabs/music", headers: [("X-Forwarded-Proto", "https"), ("X-Forwarded-For", "198.51.100.7")])
        #expect(response.headers["set-cookie"]?.contains("; Secure") == true)
        var request = HTTPRequest(method: .get, path: "/healthz", remoteAddress: "127.0.0.1")
        request.headers.add("Forwarded", #"for="[2001:db8::7]:4711";proto=https, for=127.0.0.1"#)
        #expect(await app.responder.answer(to: request).logNote == "client=2001:db8::7")
    }

    @Test("a public origin decides the cookie's Secure flag whatever the headers say")
    func publicOrigin() async throws {
        let client = TestClient(try makeApp { $0.publicOrigin = try PublicOrigin("https://shop.example") }.responder)
        client.remoteAddress = "203.0.113.9"
        await #expect(client.get("/tabs/music").headers["set-cookie"]?.contains("; Secure") == true)
    }

    @Test(
        "address ranges",
        arguments: [
            ("127.0.0.0/8", "127.1.2.3", true), ("127.0.0.0/8", "128.0.0.1", false), ("::1", "::1", true),
            ("10.0.0.0/8", "::ffff:10.2.3.4", true), ("2001:db8::/32", "2001:db8:1::5", true),
            ("2001:db8::/32", "2001:db9::1", false),
            ("192.168.1.7", "192.168.1.7", true), ("192.168.1.7", "192.168.1.8", false), ("0.0.0.0/0", "8.8.8.8", true),
        ])
    func ranges(range: String, address: String, inside: Bool) throws {
        let parsed = try #require(AddressRange(range))
        #expect(parsed.contains(address) == inside)
    }

    /// IPv4 text is parsed by hand (it is every request's peer); it must take exactly what
    /// `inet_pton` takes, and IPv6 still goes to `inet_pton`.
    @Test(
        "an address is in the range exactly when inet_pton reads it as one inside",
        arguments: [
            "10.1.2.3", "10.0.0.0", "10.255.255.255", "10.1.2", "10.1.2.3.4", "10.1.2.256", "10.01.2.3", "010.1.2.3",
            "10.1.2.3 ", " 10.1.2.3", "10..2.3", "10.1.2.", ".10.1.2", "10.1.2.3/8", "1e1.1.2.3", "", "10.1.2.99999999",
            "::ffff:10.2.3.4", "::1", "10.0.0.0x",
        ])
    func handParsedIPv4(address: String) throws {
        let range = try #require(AddressRange("10.0.0.0/8"))
        var v4 = in_addr()
        var v6 = in6_addr()
        let v4Inside = inet_pton(AF_INET, address, &v4) == 1 && (UInt32(bigEndian: v4.s_addr) >> 24) == 10
        let mapped: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
        let v6Inside =
            inet_pton(AF_INET6, address, &v6) == 1
            && withUnsafeBytes(of: &v6) { Array($0[0..<12]) == mapped && $0[12] == 10 }
        #expect(range.contains(address) == (v4Inside || v6Inside), "\(address)")
    }

    @Test("malformed trusted-proxy lists are refused", arguments: ["10.0.0.0/33", "nonsense", "1.2.3.4/-1", "::1/129"])
    func badRanges(list: String) {
        #expect(throws: ConfigurationError.self) {
            _ = try AppConfiguration.parse(arguments: ["--trusted-proxies", list], environment: [:])
        }
    }
}

@Suite("Behind a real nginx", .serialized, .enabled(if: NginxServer.isInstalled, "nginx is not installed"))
struct NginxTests {
    @Test("nginx at /app/: the whole flow, every Location under /app/, cookie scoped, assets load")
    func prefix() throws {
        let app = try makeApp { $0.basePath = "/app" }
        let server = try app.start()
        defer { server.shutdown() }
        let nginx = try NginxServer(
            locations: """
                location /app/ {
                  proxy_pass http://127.0.0.1:\(server.port);
                  proxy_set_header Host $host;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                  proxy_set_header X-Forwarded-Proto https;
                  proxy_set_header X-Forwarded-Host $host;
                }
                """)
        defer { nginx.stop() }
        let connection = try #require(RawHTTPConnection(port: nginx.port))
        func send(_ method: String, _ path: String, cookie: String?, form: String? = nil) throws -> TestResponse {
            var request = "\(method) \(path) HTTP/1.1\r\nHost: shop.test\r\n"
            if let cookie { request += "Cookie: \(cookie)\r\n" }
            if let form {
                request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
            }
            request += "\r\n" + (form ?? "")
            connection.send(request)
            return try #require(connection.readResponse())
        }
        let home = try send("GET", "/app/", cookie: nil)
        #expect(home.status == 303)
        #expect(home.location == "/app/tabs/featured")
        #expect(home.headers["set-cookie"] == nil, "nothing to remember yet")
        let setCookie = try #require(try send("GET", "/app/tabs/music", cookie: nil).headers["set-cookie"])
        #expect(setCookie.contains("Path=/app"))
        #expect(setCookie.contains("; Secure"), "the proxy said https")
        let cookie = String(setCookie.split(separator: ";")[0])

        let page = try send("GET", "/app/tabs/featured", cookie: cookie)
        #expect(page.status == 200)
        #expect(try page.document.select("nav.tab-bar form").map { $0.attribute("action") }.contains("/app/select"))
        #expect(try page.document.first("header a.header-more")?.attribute("href") == "/app/more")
        #expect(!page.body.contains("127.0.0.1"), "the upstream address never appears")
        let css = try #require(page.attribute(named: "href", inTagContaining: "rel=\"stylesheet\""))
        #expect(css.hasPrefix("/app/css/app.css?v="))
        #expect(try send("GET", css, cookie: cookie).status == 200)
        let manifest = try #require(page.attribute(named: "href", inTagContaining: "rel=\"manifest\""))
        #expect(try send("GET", manifest, cookie: cookie).body.contains("\"start_url\": \"./\""))
        let token = try #require(page.csrfToken)

        let selected = try send("POST", "/app/select", cookie: cookie, form: "csrf=\(token)&tab=music")
        #expect(selected.status == 303)
        #expect(selected.location == "/app/tabs/music")
        #expect(try send("GET", "/app/tabs/music/albums/2", cookie: cookie).status == 200)
        let back = try send("POST", "/app/select", cookie: cookie, form: "csrf=\(token)&tab=tv")
        #expect(back.location == "/app/tabs/tv")
        #expect(
            try send("POST", "/app/select", cookie: cookie, form: "csrf=\(token)&tab=music").location
                == "/app/tabs/music/albums/2")

        let editor = try send("GET", "/app/more/edit", cookie: cookie)
        let version = try #require(editor.customizeVersion)
        let moved = try send(
            "POST", "/app/more/edit", cookie: cookie, form: "csrf=\(token)&version=\(version)&action=bar&tab=audiobooks"
        )
        #expect(moved.location == "/app/more/edit#c-more-audiobooks")
        #expect(try send("GET", "/app/more", cookie: cookie).moreTabIDs.contains("audiobooks") == false)
        #expect(try send("GET", "/app/nowhere", cookie: cookie).status == 404)
    }

    @Test("framing attacks are refused by nginx or the app with 400, and none reaches a handler twice")
    func framing() throws {
        let app = try makeApp()
        let server = try app.start()
        defer { server.shutdown() }
        let nginx = try NginxServer(locations: "location / { proxy_pass http://127.0.0.1:\(server.port); }")
        defer { nginx.stop() }
        let vectors = [
            "POST /select HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\nGET /healthz HTTP/1.1\r\nHost: t\r\n\r\n",
            "POST /select HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nContent-Length: 40\r\n\r\na=b",
        ]
        for vector in vectors {
            for port in [nginx.port, server.port] {
                let before = server.completedRequests
                let connection = try #require(RawHTTPConnection(port: port))
                connection.send(vector)
                let response = try #require(connection.readResponse())
                #expect(response.status == 400, "port \(port == nginx.port ? "nginx" : "app")")
                // Nothing after the malformed request is served on that connection.
                #expect(connection.readResponse() == nil)
                usleep(50_000)
                #expect(server.completedRequests - before <= 1, "no smuggled second request reached the app")
            }
        }
    }
}
