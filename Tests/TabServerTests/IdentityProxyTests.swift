// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite(
    "Signed-in users behind a real nginx (auth_request) and two instances on Redis", .serialized,
    .enabled(if: NginxServer.isInstalled, "nginx is not installed"))
struct IdentityProxyTests {
    /// A browser talking to nginx: its own cookie jar, and the user the sign-in service
    /// names for it (sent as `X-Test-User`, which only the stand-in auth service reads).
    final class Jar {
        let port: Int
        var cookie: String?
        var user: String?

        init(port: Int, user: String?) {
            self.port = port
            self.user = user
        }

        func send(_ method: String, _ path: String, form: String? = nil, extra: [(String, String)] = []) throws
            -> TestResponse
        {
            let connection = try #require(RawHTTPConnection(port: port))
            var request = "\(method) \(path) HTTP/1.1\r\nHost: shop.test\r\nConnection: close\r\n"
            if let cookie { request += "Cookie: \(cookie)\r\n" }
            if let user { request += "X-Test-User: \(user)\r\n" }
            for (name, value) in extra { request += "\(name): \(value)\r\n" }
            if let form {
                request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n"
            }
            request += "\r\n" + (form ?? "")
            #expect(connection.send(request))
            let response = try #require(connection.readResponse())
            if let set = response.headers["set-cookie"] { cookie = String(set.split(separator: ";")[0]) }
            return response
        }

        func customize(_ fields: String) throws -> TestResponse {
            let editor = try send("GET", "/more/edit")
            let token = try #require(editor.csrfToken)
            let version = try #require(editor.customizeVersion)
            return try send("POST", "/more/edit", form: "csrf=\(token)&version=\(version)&\(fields)")
        }

        func more(extra: [(String, String)] = []) throws -> [String] {
            try send("GET", "/more", extra: extra).moreTabIDs
        }
    }

    @Test("two cookie jars, one user: the arrangement follows, the selection does not; sign-out and spoofing")
    func throughNginx() throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        func instance() throws -> Application {
            try makeApp {
                $0.sessions = try SessionStoreConfiguration(redis.url)
                $0.identityHeader = "X-Forwarded-User"
                $0.csrfSecret = String(repeating: "s", count: 40)
            }
        }
        let first = try instance().start()
        let second = try instance().start()
        defer {
            first.shutdown()
            second.shutdown()
        }
        let authPort = try freeLoopbackPort()
        let nginx = try NginxServer(
            upstreams: """
                upstream tabservers {
                  server 127.0.0.1:\(first.port);
                  server 127.0.0.1:\(second.port);
                }
                # Stand-in for oauth2-proxy: signs in whoever X-Test-User names.
                server {
                  listen 127.0.0.1:\(authPort);
                  location = /oauth2/auth {
                    add_header X-Auth-Request-User $http_x_test_user always;
                    return 200;
                  }
                }
                """,
            locations: """
                location = /oauth2/auth {
                  internal;
                  proxy_pass http://127.0.0.1:\(authPort);
                  proxy_pass_request_body off;
                  proxy_set_header Content-Length "";
                }
                location / {
                  auth_request /oauth2/auth;
                  auth_request_set $user $upstream_http_x_auth_request_user;
                  proxy_pass http://tabservers;
                  proxy_set_header Host $host;
                  proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
                  proxy_set_header X-Forwarded-User $user;
                }
                """)
        defer { nginx.stop() }
        let standard = ["podcasts", "audiobooks", "purchased"]

        let laptop = Jar(port: nginx.port, user: "alice")
        let phone = Jar(port: nginx.port, user: "alice")
        #expect(try laptop.customize("action=bar&tab=audiobooks").status == 303)
        let moved = try laptop.customize("action=down&tab=music")
        #expect(
            moved.status == 303,
            "\(moved.status) then \(moved.customizeVersion ?? "-") \(moved.moreTabIDs) \(String(moved.body.split(separator: "\n").filter { $0.contains("notice") || $0.contains("message") || $0.contains("role=\"alert\"") }.joined().prefix(400)))"
        )
        let arranged = try laptop.more()
        #expect(arranged == ["tv", "podcasts", "purchased"])
        // Round-robin: these land on both instances, which agree through Redis.
        for _ in 0..<4 { #expect(try phone.more() == arranged, "the arrangement follows alice") }
        #expect(try phone.send("GET", "/tabs/featured").barTabIDs.prefix(3) == ["featured", "movies", "music"])

        let token = try #require(try laptop.send("GET", "/more").csrfToken)
        #expect(try laptop.send("POST", "/select", form: "csrf=\(token)&tab=tv").location == "/tabs/tv")
        #expect(try laptop.send("GET", "/tabs/tv/shows/3").status == 200)
        #expect(try laptop.send("GET", "/").location == "/tabs/tv/shows/3")
        #expect(try phone.send("GET", "/").location != "/tabs/tv/shows/3", "the selection stays per browser")

        // Signed out: the anonymous state (here the default), whatever the client claims.
        phone.user = nil
        #expect(try phone.more() == standard)
        #expect(try phone.more(extra: [("X-Forwarded-User", "alice")]) == standard, "nginx replaces a client's header")
        phone.user = "alice"
        #expect(try phone.more() == arranged)

        // Another device's change shows at once on the other instance too.
        #expect(try phone.customize("action=reset").status == 303)
        for _ in 0..<2 { #expect(try laptop.more() == standard) }
        #expect(first.completedRequests > 0 && second.completedRequests > 0, "both instances served")
    }

    @Test("an arrangement changed on one device redraws the bar on the user's other devices (live, across instances)")
    func liveBar() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        func instance() async throws -> Application {
            try makeApp {
                $0.sessions = try SessionStoreConfiguration(redis.url)
                $0.identityHeader = "X-Forwarded-User"
            }
        }
        let first = try await instance()
        let second = try await instance()
        let server = try second.start()
        defer { server.shutdown() }
        let laptop = SignedInBrowser(first, user: "alice")
        let phone = SignedInBrowser(second, user: "alice")
        _ = await phone.get("/more/edit")
        let cookie = try #require(phone.client.cookies["tabserver_session"])
        let stream = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 3))
        #expect(
            stream.send(
                "GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\nX-Forwarded-User: alice\r\n"
                    + "Cookie: tabserver_session=\(cookie)\r\n\r\n"))
        var received = ""
        for _ in 0..<40 where !received.contains("retry:") {
            received += stream.readAvailable(timeoutMilliseconds: 50) ?? ""
        }
        #expect(received.hasPrefix("HTTP/1.1 200 "))
        // The relay subscribes in the background: keep changing until the event arrives.
        let actions = [("bar", "audiobooks"), ("up", "audiobooks"), ("down", "audiobooks")]
        for attempt in 0..<20 where !received.contains("event: bar") {
            let (action, tab) = actions[attempt % actions.count]
            _ = try await laptop.customize([("action", action), ("tab", tab)])
            for _ in 0..<4 where !received.contains("event: bar") {
                received += stream.readAvailable(timeoutMilliseconds: 50) ?? ""
            }
        }
        #expect(received.contains("event: bar"))
    }
}
