// SPDX-License-Identifier: Apache-2.0
import TabServer
import TabServerAppModel
import TabServerCore
import TabServerTesting
import Testing

@testable import TabServerCommand

/// One version, said the same way everywhere: `--version`, `/metrics` and the newest
/// release of CHANGELOG.md.
@Suite("The version")
struct VersionTests {
    @Test("--version answers the release, whatever else is given; it is the newest in CHANGELOG.md")
    func version() throws {
        let parsed = try AppConfiguration.parse(arguments: ["--port", "1", "--version"], environment: [:])
        guard case .version(let line) = parsed else {
            Issue.record("--version gave \(parsed)")
            return
        }
        #expect(line == "tabserver \(TabServerVersion.current)")
        let changelog = try DocsTests.read("CHANGELOG.md")
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(newest?.hasPrefix("## [\(TabServerVersion.current)] - ") == true, "\(newest ?? "no release")")
        let parts = TabServerVersion.current.split(separator: ".")
        #expect(parts.count == 3 && parts.allSatisfy { Int($0) != nil }, "major.minor.patch")
    }

    @Test("/metrics names the release in tabserver_build_info")
    func metrics() async throws {
        var configuration = sevenTabConfiguration()
        configuration.metrics = true
        let app = try buildApplication(configuration, content: DemoCatalog(), log: quietLog)
        let body = await TestClient(app.responder).get("/metrics").body
        #expect(body.contains("\ntabserver_build_info{version=\"\(TabServerVersion.current)\"} 1\n"))
        #expect(body.contains("# TYPE tabserver_build_info gauge\n"))
    }
}
