// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

@Suite("Prometheus metrics")
struct MetricsTests {
    /// An app's own store that counts its sessions (here, a fixed number over a memory store).
    final class CountingStore: SessionCounting {
        let base = MemorySessionStore(capacity: 100, lifetime: SessionLifetime())
        func load(_ id: SessionID, now: Int64) throws(SessionStoreError) -> Session? { base.load(id, now: now) }
        func insert(_ session: Session) throws(SessionStoreError) { base.insert(session) }
        func update(_ session: Session) throws(SessionStoreError) -> Session? { base.update(session) }
        func delete(_ id: SessionID) throws(SessionStoreError) { base.delete(id) }
        func sweep(now: Int64) throws(SessionStoreError) -> Int { base.sweep(now: now) }
        func checkReady() -> Bool { true }
        var sessionCount: Int { 4_321 }
    }

    /// /metrics of an app on `store`, after one page was served.
    static func scrape(_ store: any SessionStore) async throws -> String {
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        let app = try buildApplication(
            configuration, content: DemoCatalog(), hooks: demoHooks(), sessionStore: store, log: quietLog)
        let client = TestClient(app.responder)
        #expect(await client.get("/tabs/music").status == 200)
        return await client.get("/metrics").body
    }

    @Test("an app's own store is counted when it adopts SessionCounting, and left out when it does not")
    func countingIsAProtocol() async throws {
        #expect(Self.sample(try await Self.scrape(CountingStore()), "tabserver_sessions") == 4_321)
        let uncounted = InterferingSessionStore(MemorySessionStore(capacity: 100), interferences: 0)
        let body = try await Self.scrape(uncounted)
        #expect(Self.sample(body, "tabserver_session_store_up") == 1)
        #expect(Self.sample(body, "tabserver_sessions") == nil)
    }

    /// The value of the sample line that starts with `series` (name and labels), if any.
    static func sample(_ body: String, _ series: String) -> Double? {
        for line in body.split(separator: "\n") where line.hasPrefix(series + " ") {
            return Double(line.dropFirst(series.count + 1))
        }
        return nil
    }

    @Test("off by default: /metrics is 404")
    func offByDefault() async throws {
        let client = TestClient(try makeApp().responder)
        await #expect(client.get("/metrics").status == 404)
        #expect(try makeApp().metrics == nil)
    }

    @Test("--metrics on parses; a bad value names the flag")
    func setting() throws {
        guard case .run(let on) = try AppConfiguration.parse(arguments: ["--metrics", "on"], environment: [:]) else {
            Issue.record("expected a configuration")
            return
        }
        #expect(on.metrics)
        guard case .run(let env) = try AppConfiguration.parse(arguments: [], environment: ["TABSERVER_METRICS": "on"])
        else {
            Issue.record("expected a configuration")
            return
        }
        #expect(env.metrics)
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--metrics=sometimes"], environment: [:])
        }
    }

    @Test("counters move by route pattern, method and status; static and unmatched have their own labels")
    func countersMove() async throws {
        let app = try makeApp { $0.metrics = true }
        let client = TestClient(app.responder)
        await #expect(client.get("/tabs/music").status == 200)
        await #expect(client.get("/tabs/music").status == 200)
        await #expect(client.get("/tabs/nope").status == 404)
        await #expect(client.get("/css/app.css").status == 200)
        await #expect(client.get("/no/such/thing").status == 404)
        await #expect(client.post("/select", form: [("tab", "tv")]).status == 403)
        let scrape = await client.get("/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.headers["content-type"] == "text/plain; version=0.0.4; charset=utf-8")
        let body = scrape.body
        #expect(
            Self.sample(body, #"tabserver_http_requests_total{route="/tabs/{tab}",method="GET",status="200"}"#) == 2)
        #expect(
            Self.sample(body, #"tabserver_http_requests_total{route="/tabs/{tab}",method="GET",status="404"}"#) == 1)
        #expect(Self.sample(body, #"tabserver_http_requests_total{route="static",method="GET",status="200"}"#) == 1)
        #expect(Self.sample(body, #"tabserver_http_requests_total{route="unmatched",method="GET",status="404"}"#) == 1)
        #expect(Self.sample(body, #"tabserver_http_requests_total{route="/select",method="POST",status="403"}"#) == 1)
        // The raw path never becomes a label.
        #expect(!body.contains("/tabs/music\""))
        #expect(!body.contains("/no/such/thing"))
        let again = await client.get("/metrics").body
        #expect(Self.sample(again, #"tabserver_http_requests_total{route="/metrics",method="GET",status="200"}"#) == 1)
        #expect(Self.sample(again, "tabserver_session_store_up") == 1)
        #expect(Self.sample(again, "tabserver_sessions") == 1)
        #expect((Self.sample(again, #"tabserver_session_store_duration_seconds_count{operation="load"}"#) ?? 0) >= 1)
        #expect(Self.sample(again, #"tabserver_session_store_errors_total{operation="load"}"#) == 0)
    }

    @Test("histograms are well-formed: ascending le, cumulative counts, +Inf equals _count, a _sum")
    func histogramShape() async throws {
        let app = try makeApp { $0.metrics = true }
        let client = TestClient(app.responder)
        for _ in 0..<5 { _ = await client.get("/tabs/featured") }
        let body = await client.get("/metrics").body
        let prefix = #"tabserver_http_request_duration_seconds_bucket{route="/tabs/{tab}",le=""#
        var bounds: [Double] = []
        var counts: [Double] = []
        for line in body.split(separator: "\n") where line.hasPrefix(prefix) {
            let rest = line.dropFirst(prefix.count)
            let label = rest.prefix { $0 != "\"" }
            bounds.append(label == "+Inf" ? .infinity : try #require(Double(label)))
            counts.append(try #require(Double(rest.split(separator: " ").last!)))
        }
        #expect(bounds.count == 15)
        #expect(bounds == bounds.sorted())
        #expect(bounds.last == .infinity)
        #expect(counts == counts.sorted())
        let total = Self.sample(body, #"tabserver_http_request_duration_seconds_count{route="/tabs/{tab}"}"#)
        #expect(total == 5)
        #expect(counts.last == total)
        let sum = try #require(Self.sample(body, #"tabserver_http_request_duration_seconds_sum{route="/tabs/{tab}"}"#))
        #expect(sum > 0 && sum < 5)
        #expect(body.contains("# TYPE tabserver_http_request_duration_seconds histogram\n"))
        #expect(body.contains("# TYPE tabserver_http_requests_total counter\n"))
        // Every sample line is `name{labels} number` or `name number`.
        for line in body.split(separator: "\n") where !line.hasPrefix("#") {
            let value = line.split(separator: " ").last.map(String.init) ?? ""
            #expect(Double(value) != nil, "\(line)")
        }
    }

    @Test("refused from a peer outside loopback and --trusted-proxies, and when relayed by a proxy")
    func refusedFromStrangers() async throws {
        let app = try makeApp {
            $0.metrics = true
            $0.trustedProxies = try ProxyTrust("10.0.0.5")
        }
        let client = TestClient(app.responder)
        client.remoteAddress = "203.0.113.9"
        await #expect(client.get("/metrics").status == 403)
        client.remoteAddress = "10.0.0.5"
        await #expect(client.get("/metrics").status == 200)
        await #expect(client.get("/metrics", headers: [("X-Forwarded-For", "203.0.113.9")]).status == 403)
        client.remoteAddress = "127.0.0.1"
        await #expect(client.get("/metrics").status == 200)
        await #expect(client.post("/metrics", form: [("a", "b")]).status == 405)
    }

    @Test("at the root only, whatever the base path")
    func rootOnly() async throws {
        let client = TestClient(
            try makeApp {
                $0.metrics = true
                $0.basePath = "/app"
            }.responder)
        await #expect(client.get("/metrics").status == 200)
        await #expect(client.get("/app/metrics").status == 404)
    }

    @Test("on a real socket the engine reports open connections and in-flight requests")
    func engineGauges() throws {
        let app = try makeApp { $0.metrics = true }
        let server = try app.start(accessLog: quietLog)
        defer { server.shutdown() }
        let idle = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 5))
        idle.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(idle.readResponse()?.status == 200)
        // The first answer can reach the client a moment before its loop counts it done:
        // scrape until only the scrape itself is in flight (bounded).
        var body = ""
        for _ in 0..<20 {
            let scraper = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 5))
            scraper.send("GET /metrics HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            body = try #require(scraper.readResponse()).body
            if Self.sample(body, "tabserver_in_flight_requests") == 1 { break }
            usleep(20_000)
        }
        #expect((Self.sample(body, "tabserver_open_connections") ?? 0) >= 2)
        #expect(Self.sample(body, "tabserver_in_flight_requests") == 1)
        #expect(Self.sample(body, #"tabserver_http_requests_total{route="/healthz",method="GET",status="200"}"#) == 1)
    }
}

#if canImport(Glibc)
    import Glibc
#endif
