// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerEngine
import TabServerHTTP
import TabServerSessions
import TabServerTabBar
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/2 by ALPN on the TLS listener (nghttp2), with real clients: curl, `openssl
/// s_client`, nghttp2's `nghttp` and `h2load`, and Python's `h2` for protocol edge cases
/// (Tests/http2/h2_edge_cases.py). The CA and certificate are TLSServerTests'.
@Suite("HTTP/2 on the engine", .serialized)
struct HTTP2ServerTests {
    typealias Certificates = TLSServerTests.Certificates

    private func certificates() throws -> Certificates { try Certificates.shared.get() }

    private func startServer(
        _ certificates: Certificates, log: LogFormatTests.FileLog? = nil,
        configure: (inout AppConfiguration) -> Void = { _ in }
    ) throws -> AppServer {
        try TLSServerTests.startServer(certificates, log: log, headerTimeout: .seconds(2), configure: configure)
    }

    private func curl(_ certificates: Certificates, _ arguments: [String]) -> (status: Int32, output: String) {
        TLSServerTests.curl(certificates, arguments)
    }

    /// The Python with `h2` that scripts/test.sh installs into .venv (nil when absent).
    static let python: String? = {
        let path = FileManager.default.currentDirectoryPath + "/.venv/bin/python"
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        return TLSServerTests.run([path, "-c", "import h2, hyperframe, hpack"]).status == 0 ? path : nil
    }()

    @Test("curl --http2 gets HTTP/2 and --http1.1 HTTP/1.1 on the same port; the access log says h2 and http/1.1")
    func curlProtocols() throws {
        let certificates = try certificates()
        let log = LogFormatTests.FileLog(format: .text)
        let server = try startServer(certificates, log: log)
        defer { server.shutdown() }
        let url = "https://127.0.0.1:\(server.port)/tabs/music"
        let two = curl(
            certificates, ["--http2", "--output", "/dev/null", "--write-out", "%{http_version} %{http_code}", url])
        #expect(two.output == "2 200", "\(two.output)")
        let one = curl(
            certificates, ["--http1.1", "--output", "/dev/null", "--write-out", "%{http_version} %{http_code}", url])
        #expect(one.output == "1.1 200", "\(one.output)")
        // A page over h2: the same bytes as over HTTP/1.1 (the same responder).
        let page2 = curl(certificates, ["--http2", url]).output
        let page1 = curl(certificates, ["--http1.1", url]).output
        #expect(page2.contains("<nav") && page2.count > 1000)
        #expect(page2.count == page1.count)
        server.shutdown()
        let lines = log.lines
        #expect(lines.contains { $0.contains("GET /tabs/music 200") && $0.contains(" h2 TLSv1.3") }, "\(lines)")
        #expect(lines.contains { $0.contains("GET /tabs/music 200") && $0.contains(" http/1.1 TLSv1.3") })
        // A stream ends when its last DATA frame is out, not when the connection does.
        #expect(!lines.contains { $0.contains("aborted") }, "\(lines)")
    }

    @Test("the JSON access log names protocol h2 and the TLS version")
    func jsonAccessLog() throws {
        let certificates = try certificates()
        let log = LogFormatTests.FileLog(format: .json)
        let server = try startServer(certificates, log: log)
        defer { server.shutdown() }
        let url = "https://127.0.0.1:\(server.port)/healthz"
        #expect(
            curl(certificates, ["--http2", "--output", "/dev/null", "--tlsv1.2", "--tls-max", "1.2", url]).status == 0)
        server.shutdown()
        let objects = try log.objects()
        #expect(objects.count == 1)
        #expect(objects.first?["protocol"] as? String == "h2")
        #expect(objects.first?["tls"] as? String == "TLSv1.2")
    }

    @Test("ALPN: openssl s_client is given h2 when it offers it, http/1.1 otherwise; with HTTP/2 off, never h2")
    func alpn() throws {
        let certificates = try certificates()
        func negotiated(_ port: Int, _ offer: String) -> String {
            let result = TLSServerTests.run([
                "/bin/sh", "-c",
                "echo | /usr/bin/openssl s_client -connect 127.0.0.1:\(port) -CAfile \(certificates.ca) -alpn \(offer)",
            ])
            let line = result.output.split(separator: "\n").first { $0.contains("ALPN") }
            return line.map(String.init) ?? "no ALPN line: \(result.output.suffix(300))"
        }
        let server = try startServer(certificates)
        #expect(negotiated(server.port, "h2,http/1.1") == "ALPN protocol: h2")
        #expect(negotiated(server.port, "http/1.1,h2") == "ALPN protocol: h2", "the server's preference")
        #expect(negotiated(server.port, "http/1.1") == "ALPN protocol: http/1.1")
        #expect(negotiated(server.port, "spdy/3") == "No ALPN negotiated")
        server.shutdown()
        let off = try startServer(certificates) { $0.http.tls?.http2 = false }
        defer { off.shutdown() }
        #expect(negotiated(off.port, "h2,http/1.1") == "ALPN protocol: http/1.1")
        #expect(negotiated(off.port, "h2") == "No ALPN negotiated")
        let fallback = curl(
            certificates,
            [
                "--http2", "--output", "/dev/null", "--write-out", "%{http_version}",
                "https://127.0.0.1:\(off.port)/healthz",
            ])
        #expect(fallback.output == "1.1")
    }

    @Test("h2c stays off: no prior knowledge and no Upgrade on the plain port")
    func noCleartextHTTP2() throws {
        let server = try makeApp().start()
        defer { server.shutdown() }
        let url = "http://127.0.0.1:\(server.port)/healthz"
        let prior = TLSServerTests.run([
            "/usr/bin/curl", "--silent", "--max-time", "5", "--http2-prior-knowledge", "--output", "/dev/null",
            "--write-out", "%{http_version}", url,
        ])
        #expect(prior.output != "2", "prior knowledge must not get HTTP/2: \(prior.output)")
        let upgrade = TLSServerTests.run([
            "/usr/bin/curl", "--silent", "--max-time", "5", "--http2", "--output", "/dev/null", "--write-out",
            "%{http_version} %{http_code}", url,
        ])
        #expect(upgrade.output == "1.1 200", "\(upgrade.output)")
    }

    @Test("nghttp -nv: the server's SETTINGS (100 streams, window, header list), HEADERS and DATA frames")
    func nghttpFrames() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        let result = TLSServerTests.run([
            "/usr/bin/nghttp", "-nv", "https://127.0.0.1:\(server.port)/tabs/music",
            "https://127.0.0.1:\(server.port)/healthz",
        ])
        #expect(result.status == 0, "\(result.output.suffix(500))")
        #expect(result.output.contains("SETTINGS_MAX_CONCURRENT_STREAMS(0x03):100"), "\(result.output.prefix(1500))")
        #expect(result.output.contains("SETTINGS_INITIAL_WINDOW_SIZE(0x04):65535"))
        #expect(result.output.contains("SETTINGS_MAX_HEADER_LIST_SIZE(0x06):"))
        #expect(result.output.contains("SETTINGS_ENABLE_PUSH(0x02):0"))
        #expect(result.output.components(separatedBy: ":status: 200").count == 3, "both streams answered")
        #expect(result.output.contains("recv DATA frame"))
        #expect(result.output.contains("; END_STREAM"))
    }

    @Test("h2load: 400 requests on 4 connections, 8 streams each at once, all 2xx")
    func h2load() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        let result = TLSServerTests.run([
            "/usr/bin/h2load", "-n", "400", "-c", "4", "-m", "8", "https://127.0.0.1:\(server.port)/tabs/music",
        ])
        #expect(result.status == 0)
        #expect(result.output.contains("400 succeeded, 0 failed, 0 errored"), "\(result.output.suffix(600))")
        #expect(result.output.contains("status codes: 400 2xx"))
        print(result.output.split(separator: "\n").filter { $0.hasPrefix("finished in") }.joined())
    }

    @Test("a select over h2: the page's CSRF token and session cookie, a form POST answered 303")
    func selectOverHTTP2() throws {
        let certificates = try certificates()
        let server = try startServer(certificates)
        defer { server.shutdown() }
        let base = "https://127.0.0.1:\(server.port)"
        let jar = certificates.directory + "/jar-\(UUID().uuidString)"
        let page = curl(certificates, ["--http2", "--include", "--cookie-jar", jar, base + "/tabs/music"])
        #expect(page.output.hasPrefix("HTTP/2 200"), "\(page.output.prefix(200))")
        #expect(page.output.lowercased().contains("; secure"))
        let token = try #require(
            TestResponse(status: 200, headers: HTTPHeaders(), body: Array(page.output.utf8)).csrfToken)
        let select = curl(
            certificates,
            [
                "--http2", "--include", "--cookie", jar, "--cookie-jar", jar, "-H", "Origin: \(base)", "--data",
                "csrf=\(token)&tab=tv", base + "/select",
            ])
        #expect(select.output.hasPrefix("HTTP/2 303"), "\(select.output.prefix(300))")
        #expect(select.output.contains("location: /tabs/tv"), "\(select.output.prefix(300))")
        // Without the token the same POST is refused: the body and cookie arrived as sent.
        let forged = curl(
            certificates,
            [
                "--http2", "--output", "/dev/null", "--write-out", "%{http_code}", "--cookie", jar, "-H",
                "Origin: \(base)", "--data", "tab=tv", base + "/select",
            ])
        #expect(forged.output == "403", "\(forged.output)")
    }

    @Test("Server-Sent Events over h2: the badge stream stays open and receives an event; a drain ends it")
    func eventStreamOverHTTP2() async throws {
        let certificates = try certificates()
        let app = try makeApp {
            $0.http.tls = TLSSettings(certificatePath: certificates.certificate, keyPath: certificates.key)
            $0.liveHeartbeat = .milliseconds(300)
        }
        let server = try app.start()
        defer { server.shutdown() }
        let base = "https://127.0.0.1:\(server.port)"
        let jar = certificates.directory + "/jar-\(UUID().uuidString)"
        #expect(
            curl(certificates, ["--http2", "--output", "/dev/null", "--cookie-jar", jar, base + "/tabs/music"]).status
                == 0)
        let cookieLine = try String(contentsOfFile: jar, encoding: .utf8).split(separator: "\n").first {
            $0.contains("tabserver_session")
        }
        let cookie = try #require(cookieLine.flatMap { $0.split(separator: "\t").last }.map(String.init))
        let stream = try ChildProcess(
            [
                "/usr/bin/curl", "--http2", "--silent", "--no-buffer", "--include", "--max-time", "20", "--cacert",
                certificates.ca, "--cookie", jar, "-H", "Accept: text/event-stream", base + "/events",
            ], standardOutput: .pipe)
        defer { _ = stream.stop(SIGKILL) }
        var received = ""
        func read(until text: String) {
            let deadline = ContinuousClock.now + .seconds(5)
            while !received.contains(text) && ContinuousClock.now < deadline {
                received += stream.readOutput(within: .milliseconds(100))
            }
        }
        read(until: "retry:")
        #expect(received.hasPrefix("HTTP/2 200"), "\(received.prefix(300))")
        #expect(received.contains("content-type: text/event-stream"))
        #expect(!received.contains("content-length"))
        let id = try #require(SessionID(cookieValue: cookie))
        #expect(try await app.setBadge(.badge(.text("Sale")), forTab: "movies", visitor: id))
        read(until: "\"Sale\"")
        #expect(received.contains("event: badge"), "\(received.suffix(300))")
        #expect(received.contains("\"tab\":\"movies\""))
        read(until: ": heartbeat")
        #expect(received.contains(": heartbeat"), "the stream stays open")
        // A drain ends the stream at once (it never ends by itself) and curl sees the end.
        server.shutdown()
        #expect(stream.waitForExit(.seconds(5)) != nil, "curl saw the stream end")
    }

    @Test("deferred answers over h2: streams answered later from another thread, others meanwhile, on one connection")
    func deferredOverHTTP2() throws {
        let certificates = try certificates()
        var configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 1, connectionLimit: 64, connectionTimeout: .seconds(5),
            shutdownGracePeriod: .seconds(3))
        configuration.tls = TLSSettings(certificatePath: certificates.certificate, keyPath: certificates.key)
        let responder = LaterAnswers()
        let server = try HTTPServer(configuration: configuration, responder: responder, accessLog: nil)
        defer { server.shutdown() }
        let base = "https://127.0.0.1:\(server.port)"
        let result = curl(
            certificates,
            [
                "--http2", "--parallel", "--parallel-immediate", "--write-out",
                "%{http_version} %{http_code} %{num_connects} %{url_effective}\\n", base + "/later/600",
                base + "/later/300", base + "/now",
            ])
        #expect(result.status == 0, "\(result.output)")
        for path in ["/later/600", "/later/300", "/now"] {
            #expect(result.output.contains("answered \(path)\n"), "\(result.output)")
            #expect(result.output.contains("2 200") && result.output.contains(base + path))
        }
        // Not in the order asked: /now, asked last, is answered while the others wait (the
        // two later ones' order is left alone, a loaded machine may start curl's streams apart).
        let order = ["/now\n", "/later/300\n", "/later/600\n"].compactMap { result.output.range(of: "answered " + $0) }
        #expect(
            order.count == 3 && order[0].lowerBound < order[1].lowerBound && order[0].lowerBound < order[2].lowerBound,
            "\(result.output)")

        // A drain lets a stream whose answer is still to come finish (GOAWAY, then the answer).
        let pending = try ChildProcess(
            [
                "/usr/bin/curl", "--http2", "--silent", "--show-error", "--max-time", "10", "--cacert", certificates.ca,
                "--write-out", " %{http_version} %{http_code}", base + "/later/1000",
            ], standardOutput: .pipe)
        defer { _ = pending.stop(SIGKILL) }
        // The drain starts once the server has the request and is working on its answer.
        #expect(waitUntil(.seconds(10)) { responder.started.load(ordering: .acquiring) == 3 }, "the request arrived")
        let started = ContinuousClock.now
        server.shutdown()
        let drained = ContinuousClock.now - started
        #expect(pending.readAllOutput() == "answered /later/1000\n 2 200")
        #expect(drained >= .milliseconds(300), "the drain waited for the answer: \(drained)")
    }

    @Test(
        "Python h2 edge cases close the connection or the stream as they must, and the server stays healthy",
        .enabled(
            if: python != nil, "Python's h2 is not in .venv: scripts/test.sh installs Tests/http2/requirements.txt"),
        arguments: [
            "bad-preface", "window-overflow", "rapid-reset", "continuation-flood", "settings-flood", "ping-flood",
            "zero-window", "too-many-streams", "idle", "idle-after-request", "slow-request", "body-too-large",
            "lower-stream-id-closed", "lower-stream-id-open",
        ])
    func edgeCase(_ scenario: String) throws {
        let certificates = try certificates()
        let server = try startServer(certificates) {
            // The zero-window client is cut by the send deadline: 2 s for a tiny answer.
            $0.http.sendTimeout = .seconds(2)
            // The slow request's 408 comes after the header plus body timeouts: 3 s.
            $0.http.bodyTimeout = .seconds(1)
            // An idle connection (after its requests) is closed after 3 s.
            $0.http.connectionTimeout = .seconds(3)
            $0.metrics = true
        }
        defer { server.shutdown() }
        let python = try #require(Self.python)
        let result = TLSServerTests.run([
            python, "Tests/http2/h2_edge_cases.py", scenario, String(server.port), certificates.ca,
        ])
        print("h2 \(scenario): \(result.output.split(separator: "\n").last ?? "")")
        #expect(result.status == 0, "\(result.output.suffix(1500))")
        #expect(result.output.contains("result: ok"))
        // Other clients are served meanwhile and after.
        let healthy = curl(
            certificates,
            [
                "--http2", "--output", "/dev/null", "--write-out", "%{http_version} %{http_code}",
                "https://127.0.0.1:\(server.port)/healthz",
            ])
        #expect(healthy.output == "2 200", "\(healthy.output)")
        if scenario.hasPrefix("lower-stream-id") {
            // Counted with the other HTTP/2 refusals.
            let metrics = curl(certificates, ["--http2", "https://127.0.0.1:\(server.port)/metrics"])
            #expect(metrics.output.contains("\ntabserver_http2_connection_errors_total 1\n"), "\(metrics.output)")
        }
    }
}

/// Answers `/later/N` after N milliseconds from another thread, anything else at once;
/// counts the `/later/` requests it has started on.
private final class LaterAnswers: HTTPResponder {
    let started = Atomic<Int>(0)

    func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer? {
        request.path.hasPrefix("/later/") ? nil : ResponderAnswer(.text("answered \(request.path)\n"))
    }

    func answer(to request: HTTPRequest) async -> ResponderAnswer {
        started.add(1, ordering: .releasing)
        if let delay = Int(request.path.dropFirst("/later/".count)) { try? await Task.sleep(for: .milliseconds(delay)) }
        return ResponderAnswer(.text("answered \(request.path)\n"))
    }
}
