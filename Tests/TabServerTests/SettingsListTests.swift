// SPDX-License-Identifier: Apache-2.0
import FoundationEssentials
import TabServerAppModel
import TabServerCore
import TabServerHTTP
import TabServerRedisSessions
import TabServerTabBar
import TabServerTesting
import TabServerWeb
import Testing

@Suite("One settings list: code, --help and docs/configuration.md")
struct SettingsListTests {
    /// A row as docs/configuration.md writes it, backticks removed: flag, environment, default, meaning.
    struct Row: Equatable, CustomTestStringConvertible {
        let cells: [String]
        var testDescription: String { cells.joined(separator: " | ") }
    }

    static func documentedRows() throws -> [Row] {
        let path = TestFixtures.repositoryRoot + "/docs/configuration.md"
        let data = try #require(FileManager.default.contents(atPath: path))
        let text = String(decoding: data, as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasPrefix("| `--") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            return Row(cells: cells.map { $0.filter { $0 != "`" }.trimmingCharacters(in: .whitespaces) })
        }
    }

    static func codeRows() -> [Row] {
        AppConfiguration.settings.map { setting in
            let environment = ([setting.environment] + setting.alsoEnvironment.map { "(or \($0))" })
                .joined(separator: " ")
            return Row(cells: ["--\(setting.flag)", environment, setting.defaultValue, setting.help])
        }
    }

    @Test("docs/configuration.md's table lists the same settings, in order, as the code")
    func documentedMatchesCode() throws {
        let documented = try Self.documentedRows()
        let code = Self.codeRows()
        #expect(documented.map(\.cells.first) == code.map(\.cells.first), "flags and their order")
        for (documentedRow, codeRow) in zip(documented, code) {
            #expect(
                documentedRow == codeRow,
                "docs/configuration.md row (backticks removed) differs from AppConfiguration.settings")
        }
    }

    @Test("--help prints every row: flag, meaning, variables and default")
    func helpPrintsTheList() {
        let help = AppConfiguration.helpText
        for setting in AppConfiguration.settings {
            #expect(help.contains("--\(setting.flag)  \(setting.help)"))
            #expect(help.contains("\(setting.environment)"))
            #expect(help.contains("default: \(setting.defaultValue)"))
        }
    }

    @Test("every flag and variable is unique")
    func unique() {
        let flags = AppConfiguration.settings.map(\.flag)
        let variables = AppConfiguration.settings.flatMap { [$0.environment] + $0.alsoEnvironment }
        #expect(Set(flags).count == flags.count)
        #expect(Set(variables).count == variables.count)
    }
}

@Suite("Typed configuration")
struct TypedConfigurationTests {
    func parse(_ arguments: [String], _ environment: [String: String] = [:]) throws -> AppConfiguration {
        guard case .run(let configuration) = try AppConfiguration.parse(arguments: arguments, environment: environment)
        else { throw ConfigurationError("help") }
        return configuration
    }

    @Test("defaults are typed values")
    func defaults() throws {
        let configuration = try parse([])
        #expect(configuration.sessions == .sqlite(path: "data/sessions.sqlite"))
        #expect(configuration.sessionIdleTimeout == .seconds(30 * 86_400))
        #expect(configuration.sessionAbsoluteTimeout == .seconds(180 * 86_400))
        #expect(configuration.http.connectionTimeout == .seconds(30))
        #expect(configuration.http.shutdownGracePeriod == .seconds(8))
        #expect(configuration.trustedProxies == .loopback)
        #expect(configuration.trustedProxies.trusts("127.0.0.1") && configuration.trustedProxies.trusts("::1"))
        #expect(!configuration.trustedProxies.trusts("10.0.0.1"))
        #expect(configuration.publicOrigin == nil)
        #expect(AppConfiguration().sessions == configuration.sessions)
    }

    @Test("session stores: memory with capacity, SQLite path, Redis with prefix, in any flag order")
    func sessionStores() throws {
        #expect(try parse(["--memory-sessions", "50", "--sessions", "memory"]).sessions == .memory(capacity: 50))
        #expect(try parse(["--sessions", "memory"]).sessions == .memory(capacity: 100_000))
        #expect(try parse(["--sessions", "sqlite:/tmp/x.sqlite"]).sessions == .sqlite(path: "/tmp/x.sqlite"))
        let redis = try parse(["--redis-prefix", "shop:", "--sessions", "redis://10.0.0.5:6380/2"]).sessions
        #expect(redis == .redis(RedisConfiguration(host: "10.0.0.5", port: 6380, database: 2), keyPrefix: "shop:"))
        #expect(redis.description == "redis://10.0.0.5:6380/2")
        #expect(
            try parse([], ["TABSERVER_SESSIONS": "redis://127.0.0.1"]).sessions
                == .redis(RedisConfiguration(host: "127.0.0.1"), keyPrefix: "tabserver:session:"))
    }

    @Test("durations are Durations")
    func durations() throws {
        let configuration = try parse([
            "--session-idle", "120", "--session-absolute=3600", "--connection-timeout", "5", "--shutdown-grace", "0",
        ])
        #expect(configuration.sessionIdleTimeout == .seconds(120))
        #expect(configuration.sessionAbsoluteTimeout == .seconds(3600))
        #expect(configuration.http.connectionTimeout == .seconds(5))
        #expect(configuration.http.shutdownGracePeriod == .zero)
    }

    @Test("trusted proxies and public origin are parsed once")
    func proxiesAndOrigin() throws {
        let configuration = try parse([
            "--trusted-proxies", "10.0.0.0/24, 192.168.1.7", "--public-origin", "HTTPS://Shop.Example.com:8443/",
        ])
        #expect(configuration.trustedProxies.trusts("10.0.0.9"))
        #expect(!configuration.trustedProxies.trusts("127.0.0.1"))
        #expect(configuration.trustedProxies.description == "10.0.0.0/24, 192.168.1.7")
        #expect(configuration.publicOrigin == PublicOrigin(scheme: .https, host: "shop.example.com", port: 8443))
        #expect(configuration.publicOrigin?.isHTTPS == true)
        #expect(configuration.publicOrigin?.description == "https://shop.example.com:8443")
        #expect(try parse(["--trusted-proxies", ""]).trustedProxies.ranges.isEmpty)
        #expect(try parse(["--public-origin", "http://[::1]:8080"]).publicOrigin?.isHTTPS == false)
        #expect(try parse(["--public-origin", ""]).publicOrigin == nil)
    }

    @Test(
        "bad values fail at parse time, naming the flag",
        arguments: [
            (["--sessions", "bogus"], "sessions"), (["--sessions", "sqlite:"], "sessions"),
            (["--sessions", "redis://"], "sessions"), (["--sessions", "redis://h:0"], "sessions"),
            (["--public-origin", "shop.example.com"], "public-origin"),
            (["--public-origin", "https://shop.example.com/app"], "public-origin"),
            (["--public-origin", "ftp://shop.example.com"], "public-origin"),
            (["--public-origin", "https://a@shop.example.com"], "public-origin"),
            (["--public-origin", "https://shop.example.com:99999"], "public-origin"),
            (["--public-origin", "https://"], "public-origin"),
            (["--session-idle", "10"], "session-idle"), (["--connection-timeout", "0"], "connection-timeout"),
            (["--shutdown-grace", "-1"], "shutdown-grace"), (["--redis-prefix", ""], "redis-prefix"),
            (["--trusted-proxies", "10.0.0.0/33"], "trusted-proxies"), (["--tabs", ""], "tabs"),
        ])
    func badValues(arguments: [String], flag: String) {
        #expect {
            _ = try parse(arguments)
        } throws: { error in
            guard let error = error as? ConfigurationError else { return false }
            return error.flag == flag && error.message.hasPrefix("--\(flag): ")
        }
    }

    @Test("a bad value from the environment names the flag and the variable")
    func environmentNamed() {
        #expect {
            _ = try parse([], ["TABSERVER_SESSIONS": "mongodb"])
        } throws: { error in
            (error as? ConfigurationError)?.message.contains("--sessions") == true
                && (error as? ConfigurationError)?.message.contains("TABSERVER_SESSIONS") == true
        }
        #expect(throws: ConfigurationError.self) { _ = try parse([], ["PORT": "http"]) }
        #expect(
            (try? parse([], ["PORT": "1", "TABSERVER_PORT": "2"]))?.http.port == 2, "TABSERVER_PORT wins over PORT")
    }

    @Test("a hand-built configuration with impossible values is refused at start, not trapped")
    func handBuilt() {
        var configuration = sevenTabConfiguration()
        configuration.sessionIdleTimeout = .zero
        #expect(throws: StartupError.self) {
            _ = try buildApplication(configuration, content: EmptyContent(), log: quietLog)
        }
        configuration = sevenTabConfiguration()
        configuration.sessions = .memory(capacity: 0)
        #expect(throws: StartupError.self) {
            _ = try buildApplication(configuration, content: EmptyContent(), log: quietLog)
        }
    }
}

/// Content for apps that are only built, never browsed.
private struct EmptyContent: TabContentProvider {
    func page(for request: HTTPRequest, context: RequestContext) async throws -> TabPage? { nil }
}
