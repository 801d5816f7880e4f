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

/// Answers 200 with the path, and remembers every path it was asked for, so a test can
/// tell which requests reached the app.
final class RecordingResponder: ImmediateResponder {
    private let paths = Mutex<[String]>([])

    func respond(to request: HTTPRequest) -> HTTPResponse {
        paths.withLock { $0.append(request.path) }
        return .text("path=\(request.path)\n")
    }

    /// How many requests whose path holds `tag` reached the app.
    func count(containing tag: String) -> Int {
        paths.withLock { $0.filter { $0.contains(tag) }.count }
    }
}

/// The responses in `bytes`, checked for exact framing: each a single `HTTP/1.1` status
/// line, at most one `Content-Length` that matches the bytes that follow (none for 1xx,
/// 204 and 304), or a well-formed chunked body, and nothing after the last. With
/// `headRequest`, the first response has no body.
func parseResponses(_ bytes: [UInt8], headRequest: Bool = false) -> (statuses: [Int], problem: String?) {
    var statuses: [Int] = []
    var rest = bytes[...]
    while !rest.isEmpty {
        guard let end = firstIndex(of: [13, 10, 13, 10], in: rest) else {
            return (
                statuses, "an unterminated head: \(String(decoding: rest.prefix(80), as: UTF8.self).debugDescription)"
            )
        }
        let lines = String(decoding: rest[rest.startIndex..<end], as: UTF8.self).split(
            separator: "\r\n", omittingEmptySubsequences: false)
        rest = rest[(end + 4)...]
        let statusLine = lines[0]
        guard statusLine.hasPrefix("HTTP/1.1 "), statusLine.count >= 12,
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return (statuses, "a bad status line \(statusLine.debugDescription)") }
        statuses.append(status)
        var lengths: [Int] = []
        var chunked = false
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return (statuses, "a field without colon") }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].drop { $0 == " " }
            if name.hasPrefix("http/") { return (statuses, "a second status line") }
            if name == "content-length" {
                guard let length = Int(value) else { return (statuses, "a bad Content-Length \(value)") }
                lengths.append(length)
            }
            if name == "transfer-encoding" { chunked = value.lowercased() == "chunked" }
        }
        let bodyless = status < 200 || status == 204 || status == 304
        if bodyless || (headRequest && statuses.count == 1) {
            if bodyless && !lengths.isEmpty { return (statuses, "a Content-Length on a \(status)") }
            continue
        }
        if chunked {
            while true {
                guard let lineEnd = firstIndex(of: [13, 10], in: rest),
                    let size = Int(String(decoding: rest[rest.startIndex..<lineEnd], as: UTF8.self), radix: 16),
                    rest.count >= lineEnd - rest.startIndex + 2 + size + 2
                else { return (statuses, "a bad chunked body") }
                rest = rest[(lineEnd + 2 + size + 2)...]
                if size == 0 { break }
            }
            continue
        }
        guard lengths.count == 1 else { return (statuses, "\(lengths.count) Content-Length fields") }
        guard rest.count >= lengths[0] else {
            return (statuses, "Content-Length \(lengths[0]) but \(rest.count) bytes followed")
        }
        rest = rest[(rest.startIndex + lengths[0])...]
    }
    return (statuses, nil)
}

private func firstIndex(of marker: [UInt8], in bytes: ArraySlice<UInt8>) -> Int? {
    guard bytes.count >= marker.count else { return nil }
    var index = bytes.startIndex
    while index <= bytes.endIndex - marker.count {
        if bytes[index] == marker[0] && bytes[index..<(index + marker.count)].elementsEqual(marker) { return index }
        index += 1
    }
    return nil
}

@Suite("Hostile input: a corpus of malformed and ambiguous requests")
struct HostileInputTests {
    static func configuration() -> HTTPServerConfiguration {
        HTTPServerConfiguration(
            host: "127.0.0.1", port: 0, threads: 2, connectionLimit: 256, connectionTimeout: .seconds(5),
            memoryPerConnection: 8192, maxBodySize: 1024, shutdownGracePeriod: .seconds(1))
    }

    @Test("the corpus holds at least 100 cases with distinct names")
    func corpusSize() {
        #expect(HostileCorpus.cases.count >= 100)
        #expect(Set(HostileCorpus.cases.map(\.name)).count == HostileCorpus.cases.count)
    }

    @Test(
        "direct: each case gets its status in one well-formed response, then the connection closes; the pipelined request never runs"
    )
    func direct() throws {
        let responder = RecordingResponder()
        let server = try HTTPServer(configuration: Self.configuration(), responder: responder, accessLog: nil)
        defer { server.shutdown() }
        for (index, hostile) in HostileCorpus.cases.enumerated() {
            let connection = try #require(RawHTTPConnection(port: server.port, timeoutSeconds: 3))
            connection.send(bytes: hostile.bytes(index: index))
            let (bytes, closed) = connection.readUntilClosed()
            let isHead = hostile.request.starts(with: Array("HEAD".utf8))
            let (statuses, problem) = parseResponses(bytes, headRequest: isHead)
            let shown = String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription
            #expect(problem == nil, "\(hostile.name): \(problem ?? "") in \(shown)")
            #expect(statuses == [hostile.status], "\(hostile.name): \(shown)")
            #expect(closed, "\(hostile.name): the connection stayed open")
            #expect(
                responder.count(containing: "smuggled-" + HostileCase.tag(index)) == 0,
                "\(hostile.name): the pipelined request ran")
            if hostile.status == 200 {
                #expect(
                    responder.count(containing: HostileCase.tag(index)) == 1, "\(hostile.name): the app saw it once")
            }
            if hostile.status >= 400 {
                #expect(
                    responder.count(containing: HostileCase.tag(index)) == 0, "\(hostile.name): the app saw it")
            }
        }
        // And the engine still serves.
        let after = try #require(RawHTTPConnection(port: server.port))
        after.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(after.readResponse()?.status == 200)
    }

    @Test(
        "behind nginx (keep-alive upstream): every case answered well formed, never a 502, and the app never runs more requests than nginx answered",
        .enabled(if: NginxServer.isInstalled, "nginx is not installed"))
    func behindNginx() throws {
        let responder = RecordingResponder()
        let server = try HTTPServer(configuration: Self.configuration(), responder: responder, accessLog: nil)
        defer { server.shutdown() }
        let nginx = try NginxServer(
            upstreams: "upstream engine { server 127.0.0.1:\(server.port); keepalive 4; }",
            locations: """
                location / {
                  proxy_pass http://engine;
                  proxy_http_version 1.1;
                  proxy_set_header Connection "";
                  proxy_set_header Host $host;
                  proxy_read_timeout 5s;
                }
                """)
        defer { nginx.stop() }
        // nginx's own refusals, or 200 when nginx re-framed what it accepted (it forwards
        // a chunked body with a Content-Length, drops what it ignores); anything else
        // must be the engine's status for the case.
        let nginxOwn: Set<Int> = [200, 400, 405, 411, 413, 414, 494, 501, 505]
        var answered = 0
        for (index, hostile) in HostileCorpus.cases.enumerated() where hostile.viaProxy {
            let connection = try #require(RawHTTPConnection(port: nginx.port, timeoutSeconds: 3))
            connection.send(bytes: hostile.bytes(index: index))
            let (bytes, _) = connection.readUntilClosed()
            let isHead = hostile.request.starts(with: Array("HEAD".utf8))
            let (statuses, problem) = parseResponses(bytes, headRequest: isHead)
            let shown = String(decoding: bytes.prefix(200), as: UTF8.self).debugDescription
            #expect(problem == nil, "\(hostile.name): \(problem ?? "") in \(shown)")
            let first = statuses.first { $0 >= 200 } ?? 0
            #expect(first == hostile.status || nginxOwn.contains(first), "\(hostile.name): \(shown)")
            #expect(!statuses.contains(502) && !statuses.contains(504), "\(hostile.name): \(shown)")
            #expect(
                responder.count(containing: HostileCase.tag(index)) <= statuses.count,
                "\(hostile.name): the app ran a request nginx did not answer")
            answered += 1
        }
        #expect(answered >= 90)
        // The upstream connections nginx keeps are still in step: a plain request works.
        for _ in 0..<8 {
            let after = try #require(RawHTTPConnection(port: nginx.port))
            after.send("GET /after HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(after.readResponse()?.body.contains("path=/after") == true)
        }
    }

    @Test("Expect: 100-continue: one interim 100, then one final answer")
    func expectContinue() throws {
        let server = try HTTPServer(
            configuration: Self.configuration(), responder: RecordingResponder(), accessLog: nil)
        defer { server.shutdown() }
        let connection = try #require(RawHTTPConnection(port: server.port))
        connection.send(
            "POST /f HTTP/1.1\r\nHost: t\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 3\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
        )
        // A client sends the body once the interim answer came (or after a pause of its own).
        let interim = connection.readAvailable(timeoutMilliseconds: 3_000) ?? ""
        #expect(interim.hasPrefix("HTTP/1.1 100 "), "the interim answer before the body: \(interim)")
        connection.send("a=b")
        let (rest, closed) = connection.readUntilClosed()
        let (statuses, problem) = parseResponses(Array(interim.utf8) + rest)
        #expect(problem == nil)
        #expect(statuses == [100, 200])
        #expect(closed)
    }
}
