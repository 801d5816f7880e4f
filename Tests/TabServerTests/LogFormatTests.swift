// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerTesting
import Testing

@Suite("Log format")
struct LogFormatTests {
    /// A sink on a fresh temporary file, and a way to read back its lines.
    final class FileLog {
        let path: String
        let descriptor: Int32
        let sink: LogSink

        init(format: LogFormat) {
            path = TestFixtures.temporaryDirectory("log") + "/log.txt"
            descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            sink = LogSink(descriptor: descriptor, format: format)
        }

        deinit { close(descriptor) }

        var lines: [String] {
            sink.flush()
            let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return text.split(separator: "\n").map(String.init)
        }

        /// Every line parsed as a JSON object (a line that is not one fails the test).
        func objects() throws -> [[String: Any]] {
            try lines.map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
                return try #require(object as? [String: Any], "not an object: \(line)")
            }
        }
    }

    @Test("--log-format parses text and json, refuses anything else")
    func setting() throws {
        guard case .run(let json) = try AppConfiguration.parse(arguments: ["--log-format=json"], environment: [:])
        else {
            Issue.record("expected a configuration")
            return
        }
        #expect(json.logFormat == .json)
        #expect(AppConfiguration().logFormat == .text)
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration.parse(arguments: ["--log-format", "xml"], environment: [:])
        }
    }

    @Test("messages are one JSON object per line with time, level and msg; escaping is exact")
    func messages() throws {
        let log = FileLog(format: .json)
        let nasty = "quote \" backslash \\ newline \n tab \t bell \u{07} del \u{7F} ünïcödé 日本 🎉"
        log.sink.write(nasty, level: .error)
        log.sink.write("plain")
        let raw = log.lines
        #expect(raw.count == 2)
        #expect(raw[0].contains(#"quote \" backslash \\ newline \n tab \t bell \u0007 del \u007f ünïcödé 日本 🎉"#))
        let objects = try log.objects()
        #expect(objects[0]["msg"] as? String == "tabserver: " + nasty, "the sink's name starts the message")
        #expect(objects[0]["level"] as? String == "error")
        #expect(objects[1]["level"] as? String == "info")
        let time = try #require(objects[0]["time"] as? String)
        #expect(time.count == 24 && time.hasSuffix("Z") && time.dropFirst(10).first == "T", "\(time)")
        #expect(ISO8601DateFormatter.withFractions.date(from: time) != nil)
    }

    @Test("text format writes messages unchanged")
    func textMessages() {
        let log = FileLog(format: .text)
        log.sink.write("hello", level: .warn)
        #expect(log.lines == ["tabserver: hello"], "the sink's name, then the message unchanged")
    }

    @Test("the engine's access log in JSON: remote, method, path, status, bytes, duration_ms, note")
    func accessLog() throws {
        let log = FileLog(format: .json)
        let app = try makeApp { $0.accessLog = true }
        let server = try app.start(accessLog: log.sink)
        let connection = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 5))
        connection.send("GET /tabs/music HTTP/1.1\r\nHost: t\r\nX-Forwarded-For: 203.0.113.7\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
        connection.send("GET /tabs/%22q%5C%C3%BC\\\" HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        #expect(connection.readResponse()?.status == 404)
        let refused = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 5))
        refused.send("GET /tabs/%01 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(refused.readResponse()?.status == 400)
        server.shutdown()
        let objects = try log.objects()
        #expect(objects.count == 3)
        let page = try #require(objects.first)
        #expect(page["remote"] as? String == "127.0.0.1")
        #expect(page["method"] as? String == "GET")
        #expect(page["path"] as? String == "/tabs/music")
        #expect(page["status"] as? Int == 200)
        #expect((page["bytes"] as? Int ?? 0) > 1000)
        #expect((page["duration_ms"] as? Double ?? -1) >= 0)
        #expect(page["note"] as? String == "client=203.0.113.7")
        #expect(page["level"] as? String == "info")
        // The target as sent (percent-encoded), with its quote and backslash escaped in JSON.
        // The two later requests came on two connections: their lines may come in either order.
        let odd = try #require(objects.first { ($0["status"] as? Int) == 404 })
        #expect(odd["path"] as? String == "/tabs/%22q%5C%C3%BC\\\"")
        #expect(odd["status"] as? Int == 404)
        // A target the engine refuses is logged too, with its status.
        let bad = try #require(objects.first { ($0["status"] as? Int) == 400 })
        #expect(bad["path"] as? String == "/tabs/%01")
        #expect(bad["status"] as? Int == 400)
        #expect(odd["note"] == nil)
    }

    @Test("an access log on a full disk costs its lines, counted in /metrics, and every page is still answered")
    func accessLogOnFullDisk() throws {
        let descriptor = open("/dev/full", O_WRONLY)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let app = try makeApp {
            $0.accessLog = true
            $0.metrics = true
        }
        let server = try app.start(accessLog: LogSink(descriptor: descriptor))
        defer { server.shutdown() }
        let connection = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 5))
        for _ in 0..<20 {
            connection.send("GET /tabs/music HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(connection.readResponse()?.status == 200)
        }
        // The writer's thread meets the full disk within its 200 ms tick.
        var dropped = 0
        let deadline = Date().addingTimeInterval(10)
        while dropped < 20 && Date() < deadline {
            usleep(50_000)
            connection.send("GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n")
            let body = try #require(connection.readResponse()).body
            let line = body.split(separator: "\n").first { $0.hasPrefix("tabserver_access_log_dropped_lines_total ") }
            dropped = Int(try #require(line).split(separator: " ")[1]) ?? 0
        }
        #expect(dropped >= 20, "the 20 pages' lines (and the scrapes') are counted as dropped")
    }
}

extension ISO8601DateFormatter {
    fileprivate static var withFractions: ISO8601DateFormatter {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }
}
