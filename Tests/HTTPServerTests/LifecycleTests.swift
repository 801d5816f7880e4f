// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerEngine
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Holds every request until the test opens the gate (at most 10 s), then answers 200:
/// a request stays in flight exactly as long as a test needs, without a sleep.
final class GatedResponder: ImmediateResponder {
    private let gate = DispatchSemaphore(value: 0)

    func respond(to request: HTTPRequest) -> HTTPResponse {
        _ = gate.wait(timeout: .now() + 10)
        return .text("released \(request.path)\n")
    }

    /// Lets one held request (or the next one) go.
    func open() { gate.signal() }
}

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
        let (seconds, attoseconds) = timeout.components
        let deadline =
            DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        for _ in 0..<count where done.wait(timeout: deadline) != .success { return nil }
        return seen.withLock { $0 }
    }
}

@Suite("HTTP engine lifecycle: created, bound, running, draining, stopping, stopped")
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
        server.shutdown()  // returns, with nothing left to drain
        #expect(server.state == .stopped)
    }

    @Test("two shutdowns at once: both return only after the drain, with every loop exited")
    func concurrentShutdownsBothWait() throws {
        let responder = GatedResponder()
        let server = try HTTPServer(configuration: Self.configuration(), responder: responder, accessLog: nil)
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /held HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(waitUntil(.seconds(5)) { server.inFlightRequests == 1 })
        let returns = ShutdownReturns()
        let box = ServerBox(server)
        returns.shutdown(box)
        // The second call starts once the first is draining, with the request still held.
        #expect(waitUntil(.seconds(5)) { server.state == .draining })
        returns.shutdown(box)
        // Neither returns while the request is held (both would find the server draining).
        #expect(returns.wait(for: 1, timeout: .milliseconds(200)) == nil, "a shutdown returned during the drain")
        #expect(server.state == .draining)
        responder.open()
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
