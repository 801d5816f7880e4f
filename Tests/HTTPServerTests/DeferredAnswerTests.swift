// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization
import TabServerEngine
import TabServerHTTP
import TabServerTestSupport
import TabServerTesting
import Testing

/// Answers `/later/N` after N milliseconds (its task suspended meanwhile), `/gated` once
/// its gate opens, everything else at once without a task.
struct LaterResponder: HTTPResponder {
    var gate = AnswerGate()

    func immediateAnswer(to request: HTTPRequest) -> ResponderAnswer? {
        request.path.hasPrefix("/later/") || request.path == "/gated"
            ? nil : ResponderAnswer(.text("answered \(request.path)\n"))
    }

    func answer(to request: HTTPRequest) async -> ResponderAnswer {
        if request.path == "/gated" { await gate.wait() }
        if let delay = Int(request.path.dropFirst("/later/".count)) { try? await Task.sleep(for: .milliseconds(delay)) }
        return ResponderAnswer(.text("answered \(request.path)\n"))
    }
}

/// Awaits an answer that never comes unless its task is cancelled, and counts both.
final class CancellableResponder: HTTPResponder {
    let started = Atomic<Int>(0)
    let cancelled = Atomic<Int>(0)

    func answer(to request: HTTPRequest) async -> ResponderAnswer {
        started.add(1, ordering: .relaxed)
        do {
            try await Task.sleep(for: .seconds(120))
        } catch {
            cancelled.add(1, ordering: .relaxed)
        }
        return ResponderAnswer(.text("late\n"))
    }
}

@Suite("HTTP engine: answers given later")
struct DeferredAnswerTests {
    func withServer(threads: Int = 1, gate: AnswerGate = AnswerGate(), _ body: (HTTPServer) throws -> Void) throws {
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: threads, connectionLimit: 64, connectionTimeout: .seconds(5),
            shutdownGracePeriod: .seconds(3))
        let server = try HTTPServer(configuration: configuration, responder: LaterResponder(gate: gate), accessLog: nil)
        defer { server.shutdown() }
        try body(server)
    }

    @Test("one engine thread answers others while an answer is pending, then sends it")
    func loopIsNotBlocked() throws {
        // The pending answer is held until the other answers are in: they cannot have
        // waited for it.
        let gate = AnswerGate()
        defer { gate.open() }
        try withServer(threads: 1, gate: gate) { server in
            let slow = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 120))
            slow.send("GET /gated HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(waitUntil(.seconds(60)) { server.inFlightRequests == 1 }, "the held request is being answered")
            let fast = try #require(RawHTTPConnection(port: server.port))
            for index in 0..<5 {
                fast.send("GET /now/\(index) HTTP/1.1\r\nHost: t\r\n\r\n")
                #expect(fast.readResponse()?.body == "answered /now/\(index)\n")
            }
            gate.open()
            let late = try #require(slow.readResponse())
            #expect(late.status == 200)
            #expect(late.body == "answered /gated\n")
        }
    }

    @Test("pipelined requests behind a pending answer are answered after it, in order")
    func pipelinedInOrder() throws {
        try withServer { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send(
                "GET /later/150 HTTP/1.1\r\nHost: t\r\n\r\nGET /now HTTP/1.1\r\nHost: t\r\n\r\n"
                    + "GET /later/10 HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(connection.readResponse()?.body == "answered /later/150\n")
            #expect(connection.readResponse()?.body == "answered /now\n")
            #expect(connection.readResponse()?.body == "answered /later/10\n")
        }
    }

    @Test("a client that sends its request and closes its side still gets the answer, then the close")
    func halfClosed() throws {
        try withServer { server in
            let connection = try #require(RawHTTPConnection(port: server.port))
            connection.send("GET /later/100 HTTP/1.1\r\nHost: t\r\n\r\n")
            connection.finishSending()
            let response = try #require(connection.readResponse())
            #expect(response.body == "answered /later/100\n")
            #expect(response.headers["connection"]?.lowercased() == "close")
        }
    }

    @Test("a client that leaves while its answer is pending costs nothing; the engine goes on")
    func clientLeaves() throws {
        try withServer { server in
            for _ in 0..<20 {
                let leaving = try #require(RawHTTPConnection(port: server.port))
                leaving.send("GET /later/50 HTTP/1.1\r\nHost: t\r\n\r\n")
            }
            #expect(waitUntil(.seconds(3), every: .milliseconds(20)) { server.inFlightRequests == 0 })
            let after = try #require(RawHTTPConnection(port: server.port))
            after.send("GET /later/1 HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(after.readResponse()?.status == 200)
        }
    }

    @Test("a client that resets its connection while its answer is pending cancels the task making it")
    func resetCancels() throws {
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 1, connectionLimit: 64, connectionTimeout: .seconds(5),
            shutdownGracePeriod: .seconds(1))
        let responder = CancellableResponder()
        let server = try HTTPServer(configuration: configuration, responder: responder, accessLog: nil)
        defer { server.shutdown() }
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /wait HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(waitUntil(.seconds(10)) { responder.started.load(ordering: .relaxed) == 1 })
        #expect(responder.cancelled.load(ordering: .relaxed) == 0)
        connection.reset()
        #expect(
            waitUntil(.seconds(10)) { responder.cancelled.load(ordering: .relaxed) == 1 },
            "the handler kept waiting after its client reset the connection")
        #expect(waitUntil(.seconds(10)) { server.inFlightRequests == 0 })
    }

    @Test("a pending answer keeps a graceful shutdown waiting until it is sent")
    func drainWaits() throws {
        let configuration = HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 1, connectionLimit: 64, connectionTimeout: .seconds(5),
            shutdownGracePeriod: .seconds(3))
        let server = try HTTPServer(configuration: configuration, responder: LaterResponder(), accessLog: nil)
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send("GET /later/300 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(waitUntil(.seconds(2), every: .milliseconds(5)) { server.inFlightRequests == 1 })
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            server.shutdown()
            stopped.signal()
        }
        // The drain must begin while the answer is still pending, or this proves nothing.
        #expect(
            waitUntil(.seconds(1)) { server.state == .draining } && server.inFlightRequests == 1,
            "shutdown began while the answer was pending")
        let response = try #require(connection.readResponse())
        #expect(response.status == 200)
        #expect(response.body == "answered /later/300\n")
        #expect(stopped.wait(timeout: .now() + 5) == .success, "shutdown returned once the answer was sent")
        #expect(server.state == .stopped)
    }
}
