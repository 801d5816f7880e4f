// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServer
import TabServerCore
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

@testable import TabServerCommand

#if canImport(Glibc)
    import Glibc
#endif

/// A page whose loader waits, over a real socket: it waits off the engine's threads, so
/// the visitors on every event loop are served meanwhile. Nothing here is timed: the
/// slow page is held until every other request has been answered, which a blocked loop
/// could not do. The latencies are printed for the record.
@Suite("Slow content off the engine threads", .serialized)
struct SlowContentTests {
    @Test("a provider waiting: visitors on both loops are all answered meanwhile; the slow page arrives whole")
    func slowLoaderBlocksNobody() async throws {
        let gate = AnswerGate()
        defer { gate.open() }
        let waiting = AnswerGate()
        var content = TabContent(fallback: DemoCatalog())
        content.tab("movies") { movies in
            movies.page(
                "",
                { _, _ in
                    waiting.open()
                    await gate.wait()
                    return TabPage(title: "Slow", context: [:])
                })
        }
        var configuration = TestFixtures.configuration()
        configuration.http.threads = 2
        // The page is held as long as the others take on a loaded machine: past the send
        // deadline (30 s) the engine would give up on its answer.
        configuration.http.sendTimeout = .seconds(600)
        let server = try AppServer(try buildApplication(configuration, content: content, log: quietLog))
        defer { server.shutdown() }

        let slow = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 120))
        #expect(slow.send("GET /tabs/movies HTTP/1.1\r\nHost: t\r\n\r\n"))
        #expect(await waitUntil(.seconds(60)) { () async in waiting.isOpen }, "the slow page's loader started")
        // Four connections: the engine deals them out to its loops in turn, so both loops
        // (the slow request's among them) have visitors waiting on them.
        let latencies = Mutex<[Double]>([])
        await onThreads(4) { _ in
            guard let connection = RawHTTPConnection(port: server.port) else { return }
            for _ in 0..<40 {
                let begin = Self.monotonicSeconds()
                guard connection.send("GET /tabs/music HTTP/1.1\r\nHost: t\r\n\r\n"),
                    connection.readResponse()?.status == 200
                else { return }
                latencies.withLock { $0.append(Self.monotonicSeconds() - begin) }
            }
        }
        let sorted = latencies.withLock { $0 }.sorted()
        #expect(sorted.count == 160, "every other request was answered while the slow page waited")
        #expect(!gate.isOpen)
        if !sorted.isEmpty {
            print("while a page waited, the others' p99: \(sorted[min(sorted.count - 1, sorted.count * 99 / 100)]) s")
        }
        gate.open()
        let response = try #require(slow.readResponse())
        #expect(response.status == 200)
        #expect(response.body.contains("<title>Slow"))
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
