// SPDX-License-Identifier: Apache-2.0
import Foundation
import Synchronization
import TabServer
import TabServerCore
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `Application.run()`'s lifecycle as an app that owns it sees it: cancelling the task
/// that runs the app drains and stops it as SIGTERM does.
@Suite("Application.run(): a lifecycle the app owns")
struct ApplicationRunTests {
    @Test("cancelling the task running the app drains it and returns; the port is closed after")
    func cancelled() async throws {
        let path = TestFixtures.temporaryDirectory("run") + "/log.txt"
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        try #require(descriptor >= 0)
        defer {
            close(descriptor)
            // run() installed the process's handlers; the test runner gets its own back.
            for number in [SIGTERM, SIGINT, SIGHUP] { signal(number, SIG_DFL) }
        }
        let app = Application(configuration: sevenTabConfiguration(), log: LogSink(descriptor: descriptor))
        let returned = Atomic<Bool>(false)
        let running = Task {
            try await app.run()
            returned.store(true, ordering: .releasing)
        }

        func logText() -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        var port: Int?
        let listening = await waitUntil(.seconds(30)) { () async in
            port = Self.port(in: logText())
            return port != nil
        }
        try #require(listening, "run() said where it listens: \(logText())")
        let served = try #require(port)
        let connection = try #require(RawHTTPConnection(port: served))
        #expect(connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n"))
        #expect(connection.readResponse()?.status == 200)

        running.cancel()
        let stopped = await waitUntil(.seconds(30)) { () async in returned.load(ordering: .acquiring) }
        if !stopped {
            Issue.record("run() went on serving after its task was cancelled")
            kill(getpid(), SIGTERM)  // run()'s own handler: the pipe, then the same drain
        }
        try await running.value
        #expect(logText().contains("stop requested, draining"), "\(logText())")
        #expect(RawHTTPConnection(port: served) == nil, "nothing listens after run() returned")
    }

    /// The port in run()'s "listening on http://127.0.0.1:PORT/" line.
    private static func port(in log: String) -> Int? {
        guard let range = log.range(of: "listening on http://127.0.0.1:") else { return nil }
        return Int(log[range.upperBound...].prefix { $0.isNumber })
    }
}
