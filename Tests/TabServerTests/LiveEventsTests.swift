// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerSessions
import TabServerTabBar
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Live updates: Server-Sent Events on a real socket")
struct LiveEventsTests {
    /// Opens `/events` with the visitor's cookie on a raw socket and returns the connection
    /// once the head has arrived.
    func subscribe(_ port: Int, cookie: String, lastEventID: Int? = nil) throws -> RawHTTPConnection {
        let connection = try #require(RawHTTPConnection(port: port, timeoutSeconds: 3))
        var head =
            "GET /events HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\nCookie: tabserver_session=\(cookie)\r\n"
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        connection.send(head + "\r\n")
        return connection
    }

    /// Reads until `text` has arrived (or the time is up) and returns everything read.
    func read(_ connection: RawHTTPConnection, until text: String, seconds: Double = 2) -> String {
        var received = ""
        let deadline = Double(DispatchTimeNowSeconds()) + seconds
        while !received.contains(text) && Double(DispatchTimeNowSeconds()) < deadline {
            guard let chunk = connection.readAvailable(timeoutMilliseconds: 50) else { break }
            received += chunk
        }
        return received
    }

    @Test("setBadge reaches the visitor's open stream, and only theirs; Last-Event-ID resumes")
    func badgeEvents() async throws {
        let app = try makeApp { $0.liveHeartbeat = .milliseconds(300) }
        let server = try app.start()
        defer { server.shutdown() }
        let visitor = TestClient(app.responder)
        _ = await visitor.get("/tabs/music")
        let cookie = try #require(visitor.cookies["tabserver_session"])
        let other = TestClient(app.responder)
        _ = await other.get("/tabs/music")
        let otherCookie = try #require(other.cookies["tabserver_session"])

        let stream = try subscribe(server.port, cookie: cookie)
        let bystander = try subscribe(server.port, cookie: otherCookie)
        let head = read(stream, until: "retry:")
        #expect(head.hasPrefix("HTTP/1.1 200 "))
        #expect(head.lowercased().contains("content-type: text/event-stream"))
        #expect(head.lowercased().contains("x-accel-buffering: no"))
        #expect(!head.lowercased().contains("content-length"))

        let id = try #require(SessionID(cookieValue: cookie))
        #expect(try await app.setBadge(.badge(.text("Sale")), forTab: "movies", visitor: id))
        let event = read(stream, until: "\"Sale\"")
        #expect(event.contains("event: badge"))
        #expect(event.contains("\"tab\":\"movies\""))
        #expect(!read(bystander, until: "Sale", seconds: 0.5).contains("Sale"), "another visitor's stream")
        #expect(read(stream, until: ": heartbeat").contains(": heartbeat"))

        // A reconnecting page names the last event it saw and gets what it missed.
        let lastID = try #require(
            event.split(separator: "\n").first { $0.hasPrefix("id: ") }.flatMap { Int($0.dropFirst(4)) })
        #expect(try await app.setBadge(.badge(.count(7)), forTab: "tv", visitor: id))
        let resumed = try subscribe(server.port, cookie: cookie, lastEventID: lastID)
        let replay = read(resumed, until: "\"tab\":\"tv\"")
        #expect(replay.contains("\"tab\":\"tv\""))
        #expect(!replay.contains("\"Sale\""), "events already seen are not sent again")
    }

    @Test("through nginx (docs/deployment.md's proxy settings) each event arrives as it is written")
    func throughNginx() async throws {
        let app = try makeApp()
        let server = try app.start()
        defer { server.shutdown() }
        let nginx = try NginxServer(
            locations: """
                location / {
                  proxy_pass http://127.0.0.1:\(server.port);
                  proxy_http_version 1.1;
                  proxy_set_header Connection "";
                  proxy_set_header Host $host;
                }
                """)
        defer { nginx.stop() }
        let visitor = TestClient(app.responder)
        _ = await visitor.get("/tabs/music")
        let cookie = try #require(visitor.cookies["tabserver_session"])
        let stream = try subscribe(nginx.port, cookie: cookie)
        #expect(read(stream, until: "retry:").contains("retry:"), "the first bytes pass nginx at once")
        let id = try #require(SessionID(cookieValue: cookie))
        #expect(try await app.setBadge(.badge(.text("Now")), forTab: "tv", visitor: id))
        // Unbuffered (X-Accel-Buffering: no): the event passes while the stream stays open; a
        // buffering proxy would hold its few bytes until a buffer filled or the stream ended.
        #expect(read(stream, until: "\"Now\"", seconds: 5).contains("\"Now\""))
    }

    @Test("two instances on Redis: a badge set on one reaches a stream on the other (pub/sub)")
    func acrossInstances() async throws {
        let redis = try RedisServer()
        defer { redis.stop() }
        let first = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let second = try makeApp { $0.sessions = try SessionStoreConfiguration(redis.url) }
        let serverB = try second.start()
        defer {
            first.responder.events.closeAll()
            serverB.shutdown()
        }
        let visitor = TestClient(first.responder)
        _ = await visitor.get("/tabs/music")
        let cookie = try #require(visitor.cookies["tabserver_session"])
        let stream = try subscribe(serverB.port, cookie: cookie)
        #expect(read(stream, until: "retry:").contains("200"))
        // Both subscriptions are live once a relayed probe event arrives.
        var relayed = false
        for _ in 0..<40 where !relayed {
            first.responder.events.publish("probe", data: "{}", to: nil)
            relayed = read(stream, until: "event: probe", seconds: 0.1).contains("event: probe")
        }
        #expect(relayed, "pub/sub between the instances")
        let id = try #require(SessionID(cookieValue: cookie))
        #expect(try await first.setBadge(.badge(.text("Far")), forTab: "tv", visitor: id))
        #expect(read(stream, until: "\"Far\"").contains("\"Far\""))
    }

    @Test("a badge cleared by opening its tab (clearsBadgeOnSelect) redraws the visitor's other windows")
    func clearedBadge() async throws {
        let app = try makeApp()
        let server = try app.start()
        defer { server.shutdown() }
        let visitor = TestClient(app.responder)
        let page = await visitor.get("/tabs/movies")
        let cookie = try #require(visitor.cookies["tabserver_session"])
        let stream = try subscribe(server.port, cookie: cookie)
        #expect(read(stream, until: "retry:").contains("200"))
        let token = try #require(page.csrfToken)
        await #expect(visitor.post("/select", form: [("csrf", token), ("tab", "music")]).status == 303)
        #expect(read(stream, until: "event: bar").contains("event: bar"))
    }

    @Test("the bar event names the window whose post caused it (TabServer-Window), so that one need not redraw")
    func barEventNamesItsWindow() async throws {
        let app = try makeApp()
        let server = try app.start()
        defer { server.shutdown() }
        let visitor = TestClient(app.responder)
        let page = await visitor.get("/tabs/movies")
        let cookie = try #require(visitor.cookies["tabserver_session"])
        let stream = try subscribe(server.port, cookie: cookie)
        #expect(read(stream, until: "retry:").contains("200"))
        let token = try #require(page.csrfToken)
        let window = "0123456789abcdef01234567"
        let tapped = await visitor.post(
            "/select", form: [("csrf", token), ("tab", "music")], headers: [("TabServer-Window", window)])
        #expect(tapped.status == 303)
        #expect(read(stream, until: "\"}").contains("data: {\"from\":\"\(window)\"}"))
    }

    @Test("a reload of the tab file tells every open page to redraw its bar")
    func barOnReload() async throws {
        let app = try makeApp()
        let server = try app.start()
        defer { server.shutdown() }
        let visitor = TestClient(app.responder)
        _ = await visitor.get("/tabs/music")
        let stream = try subscribe(server.port, cookie: try #require(visitor.cookies["tabserver_session"]))
        _ = read(stream, until: "retry:")
        #expect(app.reloadTabs() == nil)
        #expect(read(stream, until: "event: bar").contains("event: bar"))
    }

    @Test("without a session /events is 204; streams per session are capped; shutdown ends streams at once")
    func capsAndShutdown() async throws {
        // A grace period longer than the test waits: streams that held the drain would keep
        // the shutdown going past the wait below.
        let app = try makeApp { $0.http.shutdownGracePeriod = .seconds(600) }
        let server = try app.start()
        let anonymous = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 3))
        anonymous.send("GET /events HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(anonymous.readResponse()?.status == 204)

        let visitor = TestClient(app.responder)
        _ = await visitor.get("/tabs/music")
        let cookie = try #require(visitor.cookies["tabserver_session"])
        var open: [RawHTTPConnection] = []
        for _ in 0..<app.responder.events.maximumPerSession {
            let stream = try subscribe(server.port, cookie: cookie)
            #expect(read(stream, until: "retry:").contains("200"))
            open.append(stream)
        }
        let refused = try subscribe(server.port, cookie: cookie)
        #expect(refused.readResponse()?.status == 503)
        let started = DispatchTimeNowSeconds()
        let stopped = Atomic<Bool>(false)
        DispatchQueue.global().async {
            server.shutdown()
            stopped.store(true, ordering: .relaxed)
        }
        #expect(
            await waitUntil(.seconds(120)) { () async in stopped.load(ordering: .relaxed) },
            "streams do not hold the drain (its grace period is ten minutes)")
        print("live events: a drain with \(open.count) open streams took \(DispatchTimeNowSeconds() - started) s")
        #expect(app.responder.events.streamCount == 0)
    }
}

private func DispatchTimeNowSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
