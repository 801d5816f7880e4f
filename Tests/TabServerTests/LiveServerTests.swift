// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerGzip
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("The app on a real socket")
struct LiveServerTests {
    @Test("a full visit over keep-alive: redirect, cookie, page, select, static file")
    func visit() throws {
        let app = try makeApp()
        let server = try app.start()
        defer { server.shutdown() }
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let home = try #require(connection.readResponse())
        #expect(home.status == 303)
        #expect(home.headers["set-cookie"] == nil, "the default state needs no session")
        connection.send("GET /tabs/movies HTTP/1.1\r\nHost: localhost\r\n\r\n")
        let movies = try #require(connection.readResponse())
        let cookie = try #require(movies.headers["set-cookie"]?.split(separator: ";").first.map(String.init))
        connection.send("GET /tabs/music HTTP/1.1\r\nHost: localhost\r\nCookie: \(cookie)\r\n\r\n")
        let page = try #require(connection.readResponse())
        #expect(page.status == 200)
        #expect(page.headers["set-cookie"] == nil, "an existing session is not re-issued")
        let token = try #require(page.csrfToken)
        let form = "csrf=\(token)&tab=tv"
        connection.send(
            "POST /select HTTP/1.1\r\nHost: localhost\r\nCookie: \(cookie)\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: \(form.utf8.count)\r\n\r\n\(form)"
        )
        let selected = try #require(connection.readResponse())
        #expect(selected.status == 303)
        #expect(selected.location == "/tabs/tv")
        connection.send("GET /css/app.css HTTP/1.1\r\nHost: localhost\r\nAccept-Encoding: gzip\r\n\r\n")
        let css = try #require(connection.readResponse())
        #expect(css.status == 200)
        let plain = try Gzip.decompress(css.bodyBytes)
        #expect(String(decoding: plain, as: UTF8.self).contains(".tab-bar"))
    }

    @Test("bad input over the socket gets its status and the server keeps serving")
    func badInput() throws {
        let app = try makeApp { $0.http.maxBodySize = 2048 }
        let server = try app.start()
        defer { server.shutdown() }
        let cases: [(String, Int)] = [
            (
                "POST /select HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 9000\r\n\r\n",
                413
            ),
            ("POST /select HTTP/1.1\r\nHost: t\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi", 415),
            (
                "POST /select HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 5\r\n\r\ntab=x",
                403
            ),
            ("GET /tabs/nope HTTP/1.1\r\nHost: t\r\n\r\n", 404),
            ("PUT /tabs/music HTTP/1.1\r\nHost: t\r\nContent-Length: 0\r\n\r\n", 405),
            (
                "POST /select HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
                400
            ),
        ]
        for (request, status) in cases {
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(request)
            #expect(connection.readResponse()?.status == status, "\(request.prefix(40))")
        }
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
    }
}

@Suite("The tabserver executable", .serialized)
struct ProcessTests {
    static var binary: String { TestFixtures.repositoryRoot + "/.build/debug/tabserver" }

    /// Starts the built binary on a free port and waits for its "listening" line.
    static func launch(_ extra: [String] = [], sessions: String = "memory") throws -> (ChildProcess, Int) {
        let (process, port, _) = try launchLogging(extra, sessions: sessions)
        return (process, port)
    }

    /// The arguments that start the built binary on a free port with the repository's files
    /// and the tests' tab model (`TestFixtures.testTabsFile`) unless `extra` names its own.
    static func arguments(_ extra: [String], sessions: String = "memory") -> [String] {
        let root = TestFixtures.repositoryRoot
        let tabs = extra.contains("--tabs") ? [] : ["--tabs", TestFixtures.testTabsFile]
        return [
            Self.binary, "--port", "0", "--public", root + "/Public", "--templates", root + "/Templates",
            "--locales", root + "/Locales", "--access-log", "off", "--sessions", sessions,
        ] + tabs + extra
    }

    /// Starts `command` (by default the built binary on a free port), waits for its
    /// "listening" line, and returns the process, its port and what it logged until then.
    static func launchLogging(
        _ extra: [String] = [], sessions: String = "memory", command: [String]? = nil
    ) throws -> (ChildProcess, Int, String) {
        let process = try ChildProcess(command ?? arguments(extra, sessions: sessions), standardError: .pipe)
        var collected = ""
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let chunk = process.readOutput(within: .milliseconds(100))
            collected += chunk
            if let range = collected.range(of: "listening on http://127.0.0.1:") {
                let digits = collected[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), collected[range.upperBound...].dropFirst(digits.count).first != nil {
                    return (process, port, collected)
                }
            }
            if chunk.isEmpty && !process.isRunning { break }
        }
        process.stop()
        throw ConfigurationError("tabserver did not start: \(collected)")
    }

    @Test("answers once started, reloads on SIGHUP, drains and exits 0 on SIGTERM")
    func lifecycle() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the package first")
        let folder = TestFixtures.temporaryDirectory("proc")
        let tabs = folder + "/tabs.json"
        TestFixtures.write(
            #"{"tabs": [{"id": "music", "title": "Music", "icon": "music.svg"}, {"id": "tv", "title": "TV", "icon": "tv.svg"}]}"#,
            to: tabs)
        let started = Date()
        let (process, port) = try Self.launch(["--tabs", tabs])
        defer { process.stop() }
        var firstResponse: TimeInterval? = nil
        while firstResponse == nil && Date().timeIntervalSince(started) < 5 {
            if let connection = RawHTTPConnection(port: port) {
                connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
                if connection.readResponse()?.status == 200 { firstResponse = Date().timeIntervalSince(started) }
            }
        }
        // How soon it answers is measured on a release build in bench/; here, that it does.
        let elapsed = try #require(firstResponse)
        print("first answer \(Int(elapsed * 1000)) ms after exec (debug build)")

        func barTitles() throws -> String {
            let connection = try #require(RawHTTPConnection(port: port))
            connection.send("GET /tabs/music HTTP/1.1\r\nHost: t\r\n\r\n")
            return try #require(connection.readResponse()).body
        }
        #expect(try barTitles().contains(">TV</span>"))
        TestFixtures.write(
            #"{"tabs": [{"id": "music", "title": "Music", "icon": "music.svg"}, {"id": "tv", "title": "Television", "icon": "tv.svg"}]}"#,
            to: tabs)
        process.signal(SIGHUP)
        var reloaded = false
        for _ in 0..<100 where !reloaded {
            usleep(20_000)
            reloaded = try barTitles().contains(">Television</span>")
        }
        #expect(reloaded)
        TestFixtures.write("{ broken", to: tabs)
        process.signal(SIGHUP)
        // The refusal is logged once the file was read: only then does the check mean anything.
        var logged = ""
        #expect(
            waitUntil(.seconds(5)) {
                logged += process.readOutput(within: .milliseconds(50))
                return logged.contains("reload of \(tabs) refused, keeping the current tabs")
            }, "the refusal is logged: \(logged)")
        #expect(try barTitles().contains(">Television</span>"), "an invalid reload keeps the model")

        let stopAt = Date()
        process.signal(SIGTERM)
        #expect(process.waitForExit(.seconds(15)) == .exited(0))
        #expect(Date().timeIntervalSince(stopAt) < 10)
        #expect(RawHTTPConnection(port: port) == nil)
    }

    @Test("a bad setting exits 2 with the flag named; a broken tab file exits 1")
    func refusals() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the package first")
        for (arguments, status, text) in [
            (["--port", "abc"], Int32(2), "--port"), (["--tabs", "/nonexistent.json"], Int32(1), "/nonexistent.json"),
        ] {
            let process = try ChildProcess([Self.binary] + arguments, standardError: .pipe)
            let output = process.readAllOutput()
            #expect(process.waitForExit(.seconds(10)) == .exited(status))
            #expect(output.contains(text))
        }
    }

    @Test("under a hard limit of 4096 open files the default budget shrinks to fit, said once; a chosen one refuses")
    func descriptorLimit() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary), "build the package first")
        // `ulimit -n` in sh sets the soft and the hard limit; the server cannot raise either.
        let lowered = ["/bin/sh", "-c", "ulimit -n 4096 && exec \"$@\"", "sh"]
        let (process, port, log) = try Self.launchLogging(command: lowered + Self.arguments([]))
        defer { process.stop() }
        let notices = log.components(separatedBy: "connection limit 3840 (the default 10000 needs 10256 open files")
        #expect(notices.count == 2, "said exactly once: \(log)")
        let connection = try #require(RawHTTPConnection(port: port))
        connection.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
        #expect(process.stop() == .exited(0))

        let chosen = try ChildProcess(
            lowered + Self.arguments(["--connection-limit", "10000"]), standardError: .pipe)
        let refusal = chosen.readAllOutput()
        #expect(chosen.waitForExit(.seconds(10)) == .exited(1))
        #expect(
            refusal.contains(
                "the connection limit 10000 needs 10256 open files, but the hard limit is 4096: lower --connection-limit or raise ulimit -n"
            ), "\(refusal)")

        let fitting = try ChildProcess(
            lowered + Self.arguments(["--connection-limit", "3000"]), standardError: .pipe)
        defer { fitting.stop() }
        var started = ""
        #expect(
            waitUntil(.seconds(10)) {
                started += fitting.readOutput(within: .milliseconds(50))
                return started.contains("listening on") || !fitting.isRunning
            })
        #expect(started.contains("listening on") && !started.contains("connection limit 3"), "\(started)")
    }
}
