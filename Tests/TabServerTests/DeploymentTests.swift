// SPDX-License-Identifier: Apache-2.0
import Foundation
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisSessions
import TabServerSessions
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

/// The documented deployments, run for real: docs/deployment.md's Caddyfile in front of two
/// instances on one Redis, and the server started with the Dockerfile's and
/// docker-compose.yml's settings, probed with their health checks.
@Suite("Documented deployments", .serialized)
struct DeploymentTests {
    static func file(_ relativePath: String) throws -> String {
        try String(contentsOfFile: TestFixtures.repositoryRoot + "/" + relativePath, encoding: .utf8)
    }

    /// The body of the first fenced block of `language` in docs/deployment.md.
    static func documentedBlock(_ language: String) throws -> String {
        let page = try file("docs/deployment.md")
        let start = try #require(page.range(of: "```\(language)\n"), "docs/deployment.md has no ```\(language) block")
        let end = try #require(page.range(of: "\n```", range: start.upperBound..<page.endIndex))
        return String(page[start.upperBound..<end.lowerBound])
    }

    /// GET `path` on a fresh connection with `Host: host`.
    static func get(_ port: Int, _ path: String, host: String = "t", cookie: String = "") -> TestResponse? {
        guard let connection = RawHTTPConnection(port: port, timeoutSeconds: 5) else { return nil }
        var head = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n"
        if !cookie.isEmpty { head += "Cookie: \(cookie)\r\n" }
        connection.send(head + "\r\n")
        return connection.readResponse()
    }

    @Test(
        "docs/deployment.md's Caddyfile over 2 instances on one Redis, --base-path /app: health checks pass, pages 200")
    func caddyFromDocs() throws {
        try #require(CaddyServer.isInstalled, "caddy is not installed (scripts/setup.sh --test)")
        let redis = try RedisServer()
        defer { redis.stop() }
        let logs = [LogFormatTests.FileLog(format: .text), LogFormatTests.FileLog(format: .text)]
        let servers = try logs.map { log in
            try makeApp {
                $0.sessions = try SessionStoreConfiguration(redis.url)
                $0.basePath = "/app"
                $0.accessLog = true
            }.start(accessLog: log.sink)
        }
        defer {
            for server in servers { server.shutdown() }
        }

        let block = try Self.documentedBlock("caddy")
        #expect(block.contains("shop.example.com {"))
        #expect(block.contains("reverse_proxy 127.0.0.1:8080 127.0.0.1:8081 {"))
        #expect(block.contains("health_uri /readyz"))
        let caddy = try CaddyServer { port in
            block
                .replacingOccurrences(of: "shop.example.com {", with: "http://shop.test:\(port) {\n    bind 127.0.0.1")
                .replacingOccurrences(
                    of: "127.0.0.1:8080 127.0.0.1:8081",
                    with: "127.0.0.1:\(servers[0].port) 127.0.0.1:\(servers[1].port)")
        }
        defer { caddy.stop() }
        let host = "shop.test:\(caddy.port)"

        // Caddy's active health check reaches both instances and they answer 200.
        let deadline = Date().addingTimeInterval(10)
        var healthy = false
        while !healthy && Date() < deadline {
            healthy = logs.allSatisfy { log in log.lines.contains { $0.contains(" GET /readyz 200 ") } }
            if !healthy { usleep(100_000) }
        }
        #expect(healthy, "health checks: \(logs.map(\.lines)) \(caddy.log)")
        #expect(
            !logs.contains { log in log.lines.contains { $0.contains("/readyz 404") || $0.contains("/readyz 503") } })

        let slash = try #require(Self.get(caddy.port, "/app", host: host))
        #expect([301, 302, 308].contains(slash.status) && slash.location?.hasSuffix("/app/") == true)
        let home = try #require(Self.get(caddy.port, "/app/", host: host))
        #expect(home.status == 303, "\(home.status) \(caddy.log)")
        #expect(home.headers["set-cookie"] == nil, "the default state stores nothing")
        #expect(home.location?.hasPrefix("/app/tabs/") == true)
        // Visiting another tab is something to remember: a session in the shared Redis.
        let target = "/app/tabs/music"
        let first = try #require(Self.get(caddy.port, target, host: host))
        let cookie = String(try #require(first.headers["set-cookie"]).split(separator: ";")[0])
        for _ in 0..<6 {
            let page = try #require(Self.get(caddy.port, target, host: host, cookie: cookie))
            #expect(page.status == 200)
            #expect(page.body.contains("href=\"/app/css/"))
        }
        #expect(Self.get(caddy.port, "/app/css/app.css", host: host)?.status == 200)
        // Round-robin: both instances served pages (through the shared Redis session).
        for log in logs {
            #expect(log.lines.contains { $0.contains(" GET \(target) 200 ") })
        }
    }

    @Test("the files the Dockerfile's build stage copies make a package SwiftPM loads (every target's folder is there)")
    func dockerBuildContext() throws {
        let dockerfile = try Self.file("Dockerfile")
        // Split at each FROM: [comments, the build stage, the runtime stage].
        let stages = dockerfile.components(separatedBy: "\nFROM ")
        #expect(stages.count == 3)
        let build = stages.count > 1 ? stages[1] : ""
        let copies = build.split(separator: "\n").compactMap { line -> (String, String)? in
            let words = line.split(separator: " ").map(String.init)
            guard words.first == "COPY", words.count == 3, !words[1].hasPrefix("--") else { return nil }
            return (words[1], words[2])
        }
        #expect(copies.contains { $0.0 == "Package.swift" } && copies.contains { $0.0 == "Sources" })
        let context = TestFixtures.temporaryDirectory("tabserver-docker-context")
        let script =
            copies.map { source, destination in
                "mkdir -p \"$(dirname '\(context)/\(destination)')\" && cp -r '\(TestFixtures.repositoryRoot)/\(source)' '\(context)/\(destination)'"
            }.joined(separator: " && ") + " && cd '\(context)' && swift package describe >/dev/null"
        let log = context + ".log"
        let process = try ChildProcess(
            ["/bin/sh", "-c", script], standardOutput: .file(log), standardError: .file(log))
        let ended = process.waitForExit(.seconds(120))
        let output = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(ended == .exited(0), "swift package describe in the build stage's files: \(output.prefix(400))")
    }

    @Test("the Dockerfile and docker-compose.yml health checks answer 200 with the compose file's settings")
    func composeHealthChecks() throws {
        let dockerfile = try Self.file("Dockerfile")
        let compose = try Self.file("deploy/docker-compose.yml")
        var environment: [String: String] = [:]
        // The image's ENV, then the compose service's environment (which wins).
        for line in dockerfile.split(separator: "\n") {
            let text = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "ENV ", with: "")
            guard text.hasPrefix("TABSERVER_"), let equals = text.firstIndex(of: "=") else { continue }
            let value = text[text.index(after: equals)...].split(separator: " ").first.map(String.init) ?? ""
            environment[String(text[..<equals])] = value
        }
        let service = try #require(compose.range(of: "  tabserver-1:"))
        let serviceText = compose[service.upperBound...].prefix { _ in true }
        let serviceLines = serviceText.split(separator: "\n").prefix { !$0.hasPrefix("  tabserver-2") }
        for line in serviceLines {
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("TABSERVER_"), let colon = text.firstIndex(of: ":") else { continue }
            var value = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\"") && value.hasSuffix("\"") { value = String(value.dropFirst().dropLast()) }
            environment[String(text[..<colon])] = value
        }
        #expect(environment["TABSERVER_BASE_PATH"] == "/app")
        #expect(environment["TABSERVER_SESSIONS"] == "redis://redis:6379/0")
        #expect(environment["TABSERVER_HOST"] == "0.0.0.0")

        // The health check URLs, as the container would call them.
        func paths(_ text: some StringProtocol) -> [String] {
            text.split(separator: "\n").filter { $0.contains("curl") }.compactMap { line in
                guard let range = line.range(of: "http://127.0.0.1:8080/") else { return nil }
                return "/" + line[range.upperBound...].prefix { $0 != "\"" && $0 != " " }
            }
        }
        let dockerPaths = paths(dockerfile)
        let composePaths = paths(serviceLines.joined(separator: "\n"))
        #expect(dockerPaths == ["/healthz"])
        #expect(composePaths == ["/readyz"])

        // Loopback, a free port, and a real Redis in place of the compose service.
        let redis = try RedisServer()
        defer { redis.stop() }
        environment["TABSERVER_HOST"] = "127.0.0.1"
        environment["TABSERVER_PORT"] = "0"
        environment["TABSERVER_SESSIONS"] = redis.url
        environment["TABSERVER_ACCESS_LOG"] = "off"
        for (name, folder) in [("PUBLIC", "Public"), ("TEMPLATES", "Templates"), ("LOCALES", "Locales")] {
            environment["TABSERVER_\(name)"] = TestFixtures.repositoryRoot + "/" + folder
        }
        environment["TABSERVER_TABS"] = TestFixtures.repositoryRoot + "/tabs.json"
        guard case .run(let configuration) = try AppConfiguration.parse(arguments: [], environment: environment) else {
            Issue.record("expected a configuration")
            return
        }
        #expect(configuration.basePath == "/app")
        let server = try buildApplication(
            configuration, content: DemoCatalog(), hooks: demoHooks(), redis: .standard, log: quietLog
        )
        .start()
        defer { server.shutdown() }
        for path in dockerPaths + composePaths {
            #expect(Self.get(server.port, path)?.status == 200, "\(path)")
        }
        #expect(Self.get(server.port, "/app/tabs/featured")?.status == 200)
    }

    @Test("docs/configuration.md's table has a row for every setting, flag and environment variable")
    func configurationTable() throws {
        let page = try Self.file("docs/configuration.md")
        for setting in AppConfiguration.settings {
            #expect(
                page.contains("| `--\(setting.flag)` | `\(setting.environment)`"),
                "docs/configuration.md lacks --\(setting.flag)")
        }
    }
}
