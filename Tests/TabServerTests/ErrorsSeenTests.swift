// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServer
import TabServerHTTP
import TabServerRedisConfiguration
import TabServerSQLite
import TabServerSQLiteSessions
import TabServerSessions
import TabServerTesting
import Testing

@testable import TabServerCommand
@testable import TabServerCore
@testable import TabServerRedisSessions

#if canImport(Glibc)
    import Glibc
#endif

/// Errors that used to vanish (`try?`, ignored results) are counted for `/metrics` and
/// logged once per episode.
@Suite("Every error seen", .serialized)
struct ErrorsSeenTests {
    /// A log on a temporary file.
    struct LogFile {
        let path = TestFixtures.temporaryDirectory("errors-log") + "/server.log"
        let sink: LogSink
        init() { sink = LogSink(descriptor: open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)) }
        func lines(containing text: String) -> [String] {
            sink.flush()
            let all = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
            return all.split(separator: "\n").map(String.init).filter { $0.contains(text) }
        }
    }

    @Test("an episode logs its first error, then at most one line per interval with the count since")
    func episodes() {
        let now = Atomic<UInt64>(0)
        let episode = ErrorEpisode(interval: .seconds(60)) { now.load(ordering: .relaxed) }
        #expect(episode.record() == 1)
        #expect(episode.record() == nil)
        now.store(59_000_000_000, ordering: .relaxed)
        #expect(episode.record() == nil)
        now.store(61_000_000_000, ordering: .relaxed)
        #expect(episode.record() == 3, "this one and the two not logged")
        #expect(episode.record() == nil)
        #expect(episode.total == 5)
    }

    @Test("undecodable SQLite sessions count as absent, are counted in /metrics and logged once")
    func undecodableSessions() throws {
        let path = TestFixtures.temporaryDirectory("undecodable") + "/sessions.sqlite"
        var ids: [SessionID] = []
        do {
            let store = try SQLiteSessionStore(path: path)
            for _ in 0..<2 {
                var session = Session.new(now: wallClockSeconds())
                session.state.selectedTabID = "tv"
                try store.insert(session)
                ids.append(session.id)
            }
            try store.flush()
        }
        try SQLiteDatabase(path: path).execute("UPDATE sessions SET data = x'ff00ff00'")
        let log = LogFile()
        var configuration = TestFixtures.configuration()
        configuration.sessions = .sqlite(path: path)
        configuration.metrics = true
        let app = try buildApplication(configuration, content: DemoCatalog(), log: log.sink)
        let server = try app.start()
        defer { server.shutdown() }
        for id in ids {
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send("GET / HTTP/1.1\r\nHost: t\r\nCookie: tabserver_session=\(id.text)\r\n\r\n")
            let response = try #require(connection.readResponse())
            #expect(response.status == 303)
            #expect(response.location != "/tabs/tv", "an undecodable session is a fresh one")
        }
        let scraper = try #require(RawHTTPConnection(port: server.port))
        scraper.send("GET /metrics HTTP/1.1\r\nHost: t\r\n\r\n")
        let metrics = try #require(scraper.readResponse()).body
        #expect(metrics.contains("\ntabserver_session_undecodable_total 2\n"), "\(metrics.prefix(200))")
        #expect(metrics.contains("\ntabserver_engine_system_call_errors_total 0\n"))
        #expect(metrics.contains("\ntabserver_access_log_dropped_lines_total 0\n"))
        #expect(metrics.contains("\ntabserver_live_publish_errors_total 0\n"))
        #expect(log.lines(containing: "could not be decoded").count == 1, "one line for the episode")
    }

    @Test("a PUBLISH that fails is counted and logged once per episode")
    func publishFailures() throws {
        // A port nobody listens on: every PUBLISH fails at once.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        close(listener)
        let log = LogFile()
        let relay = RedisEventRelay(
            client: RedisClient(configuration: RedisConfiguration(host: "127.0.0.1", port: port)),
            channel: "test:events",
            log: log.sink)
        for _ in 0..<3 { relay.publish(Array("event".utf8)) }
        #expect(relay.publishFailures == 3)
        #expect(log.lines(containing: "PUBLISH failure").count == 1)
    }
}
