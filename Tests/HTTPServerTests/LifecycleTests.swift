// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerEngine
import TabServerHTTP
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What a `shutdown()` call saw when it returned.
final class ShutdownReturns: Sendable {
    private let seen = Mutex<[(state: HTTPServer.State, openConnections: Int)]>([])
    private let done = DispatchSemaphore(value: 0)

    /// Calls `shutdown()` on another thread and records what the server says once it returns.
    func shutdown(_ box: ServerBox) {
        DispatchQueue.global().async {
            box.server.shutdown()
            self.seen.withLock { $0.append((box.server.state, box.server.openConnections)) }
            self.done.signal()
        }
    }

    /// Waits for `count` calls to return (each within `timeout`); what they saw.
    func wait(for count: Int, timeout: Duration) -> [(state: HTTPServer.State, openConnections: Int)]? {
        let seconds = Double(timeout.components.seconds)
        for _ in 0..<count where done.wait(timeout: .now() + seconds) != .success { return nil }
        return seen.withLock { $0 }
    }
}

@Suite("HTTP engine lifecycle: created, bound, running, draining, stopped")
struct LifecycleTests {
    static func configuration(port: Int = 0) -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: "127.0.0.1", port: port, threads: 2, connectionLimit: 64, connectionTimeout: .seconds(5),
            shutdownGracePeriod: .seconds(3))
    }

    @Test("init returns a running server; shutdown leaves it stopped; a later shutdown returns at once")
    func runningThenStopped() throws {
        let server = try HTTPServer(configuration: Self.configuration(), responder: EchoResponder(), accessLog: nil)
        #expect(server.state == .running)
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /x HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
        server.shutdown()
        #expect(server.state == .stopped)
        #expect(server.isDraining)
        #expect(RawHTTPConnection(port: server.port) == nil, "the listening socket is closed")
        let started = ContinuousClock.now
        server.shutdown()
        #expect(server.state == .stopped)
        #expect(ContinuousClock.now - started < .milliseconds(100))
    }

    @Test("two shutdowns at once: both return only after the drain, with every loop exited")
    func concurrentShutdownsBothWait() throws {
        let server = try HTTPServer(
            configuration: Self.configuration(), responder: EchoResponder(delayMicroseconds: 600_000), accessLog: nil)
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /slow HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(waitUntil(.seconds(2)) { server.inFlightRequests == 1 })
        let returns = ShutdownReturns()
        let box = ServerBox(server)
        returns.shutdown(box)
        // The second call starts once the first is draining, with the request still held.
        #expect(waitUntil(.seconds(2)) { server.state == .draining })
        #expect(server.inFlightRequests == 1, "the second shutdown starts while the first drains")
        returns.shutdown(box)
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(response.headers["connection"]?.lowercased() == "close")
        let seen = try #require(returns.wait(for: 2, timeout: .seconds(10)), "both shutdown calls return")
        #expect(seen.count == 2)
        for call in seen {
            #expect(call.state == .stopped, "a shutdown returned before the loops had exited")
            #expect(call.openConnections == 0)
        }
    }

    @Test("a port that cannot be bound throws, and the server that holds it keeps serving")
    func bindFailure() throws {
        let server = try HTTPServer(configuration: Self.configuration(), responder: EchoResponder(), accessLog: nil)
        defer { server.shutdown() }
        #expect(throws: HTTPServerError.self) {
            _ = try HTTPServer(
                configuration: Self.configuration(port: server.port), responder: EchoResponder(), accessLog: nil)
        }
        #expect(server.state == .running)
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /x HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(connection.readResponse()?.status == 200)
    }
}
