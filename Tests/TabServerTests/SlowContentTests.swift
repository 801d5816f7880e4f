// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServer
import TabServerCore
import TabServerDemo
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A page that takes two seconds to load, over a real socket: it is loaded off the
/// engine's threads, so the visitors on every event loop are served meanwhile.
@Suite("Slow content off the engine threads", .serialized)
struct SlowContentTests {
    @Test("a provider held for 2 s: other visitors on both loops keep p99 ≤ 100 ms, and the slow page arrives whole")
    func slowLoaderBlocksNobody() async throws {
        var content = TabContent(fallback: DemoCatalog())
        content.tab("movies") { movies in
            movies.page(
                "",
                { _, _ in
                    try await Task.sleep(for: .seconds(2))
                    return TabPage(title: "Slow", context: [:])
                })
        }
        var configuration = TestFixtures.configuration()
        configuration.http.threads = 2
        let server = try AppServer(try buildApplication(configuration, content: content, log: quietLog))
        defer { server.shutdown() }

        let slow = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 10))
        let started = Self.monotonicSeconds()
        #expect(slow.send("GET /tabs/movies HTTP/1.1\r\nHost: t\r\n\r\n"))
        // Four connections: the engine deals them out to its loops in turn, so both loops
        // (the slow request's among them) have visitors waiting on them.
        let latencies = Mutex<[Double]>([])
        // When the last of them finished, noted by the visitors themselves (the test's own
        // task may resume later: the suites run in parallel on few threads).
        let finished = Mutex<Double>(0)
        await onThreads(4) { _ in
            defer { finished.withLock { $0 = max($0, Self.monotonicSeconds()) } }
            guard let connection = RawHTTPConnection(port: server.port) else { return }
            for _ in 0..<40 {
                let begin = Self.monotonicSeconds()
                guard connection.send("GET /tabs/music HTTP/1.1\r\nHost: t\r\n\r\n"),
                    connection.readResponse()?.status == 200
                else { return }
                latencies.withLock { $0.append(Self.monotonicSeconds() - begin) }
            }
        }
        let othersDone = finished.withLock { $0 } - started
        let response = try #require(slow.readResponse())
        let slowTook = Self.monotonicSeconds() - started
        let sorted = latencies.withLock { $0 }.sorted()
        #expect(sorted.count == 160, "every other request was answered")
        let p99 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))]
        #expect(p99 <= 0.1, "p99 of the others: \(p99) s")
        #expect(othersDone < 1.5, "the others did not wait for the slow page (\(othersDone) s)")
        #expect(response.status == 200)
        #expect(response.body.contains("<title>Slow"))
        #expect(slowTook >= 1.9)
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
