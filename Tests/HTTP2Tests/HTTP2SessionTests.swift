// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP2
import Testing

/// `HTTP2Session` alone, fed frames built by hand: requests come out as events, answers
/// as frames, and nghttp2's own protections (its rapid-reset bucket) hold by themselves.
@Suite("HTTP/2 session (nghttp2)")
struct HTTP2SessionTests {
    static let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)

    /// One frame: its 9-byte header and payload.
    static func frame(type: UInt8, flags: UInt8, stream: UInt32, _ payload: [UInt8]) -> [UInt8] {
        let length = UInt32(payload.count)
        return [
            UInt8(length >> 16 & 0xff), UInt8(length >> 8 & 0xff), UInt8(length & 0xff), type, flags,
            UInt8(stream >> 24 & 0x7f), UInt8(stream >> 16 & 0xff), UInt8(stream >> 8 & 0xff), UInt8(stream & 0xff),
        ] + payload
    }

    /// HEADERS of `GET /` (HPACK static table only: :method GET, :scheme https, :path /,
    /// :authority "a" as a literal without indexing), ending the stream.
    static func get(_ stream: UInt32) -> [UInt8] {
        frame(type: 1, flags: 0x5, stream: stream, [0x82, 0x87, 0x84, 0x01, 0x01, 0x61])
    }

    static func reset(_ stream: UInt32) -> [UInt8] { frame(type: 3, flags: 0, stream: stream, [0, 0, 0, 8]) }

    static let settings = frame(type: 4, flags: 0, stream: 0, [])

    /// The frames in `bytes`: (type, stream, payload).
    static func frames(_ bytes: [UInt8]) -> [(type: UInt8, stream: UInt32, payload: [UInt8])] {
        var found: [(UInt8, UInt32, [UInt8])] = []
        var index = 0
        while index + 9 <= bytes.count {
            let length = Int(bytes[index]) << 16 | Int(bytes[index + 1]) << 8 | Int(bytes[index + 2])
            guard index + 9 + length <= bytes.count else { break }
            let stream =
                UInt32(bytes[index + 5] & 0x7f) << 24 | UInt32(bytes[index + 6]) << 16 | UInt32(bytes[index + 7]) << 8
                | UInt32(bytes[index + 8])
            found.append((bytes[index + 3], stream, Array(bytes[(index + 9)..<(index + 9 + length)])))
            index += 9 + length
        }
        return found
    }

    func receive(_ session: HTTP2Session, _ bytes: [UInt8]) -> HTTP2Failure? {
        bytes.withUnsafeBytes { session.receive($0) }
    }

    final class Page: HTTP2BodySource {
        var left: [UInt8]
        init(_ text: String) { left = Array(text.utf8) }
        func read(into buffer: UnsafeMutableRawBufferPointer) -> HTTP2BodyChunk {
            let count = min(buffer.count, left.count)
            buffer.copyBytes(from: left[0..<count])
            left.removeFirst(count)
            return .bytes(count, last: left.isEmpty)
        }
    }

    @Test("a GET becomes a request event; its answer goes out as HEADERS and DATA ending the stream")
    func requestAndAnswer() throws {
        let session = try #require(
            HTTP2Session(limits: HTTP2Limits(maximumHeaderListSize: 4096, maximumBodySize: 1024)))
        #expect(receive(session, Self.preface + Self.settings + Self.get(1)) == nil)
        let events = session.takeEvents()
        guard case .opened(1) = events.first, case .request(let request) = events.last else {
            Issue.record("events: \(events)")
            return
        }
        #expect(request.method == "GET" && request.path == "/" && request.authority == "a" && request.scheme == "https")
        #expect(session.respond(to: 1, status: 200, headers: [("Content-Type", "text/plain")], body: Page("hello")))
        var out: [UInt8] = []
        #expect(session.send(into: &out, limit: 1 << 20))
        let frames = Self.frames(out)
        #expect(frames.first?.type == 4, "the server's SETTINGS first")
        #expect(frames.contains { $0.type == 1 && $0.stream == 1 })
        #expect(frames.contains { $0.type == 0 && $0.stream == 1 && $0.payload == Array("hello".utf8) })
        #expect(session.takeEvents().contains { if case .closed(1, false) = $0 { true } else { false } })
    }

    @Test("nghttp2's own rapid-reset bucket (Debian's CVE-2023-44487 fix) ends the session by itself")
    func nghttp2RapidResetBucket() throws {
        // Our own budget out of the way: only nghttp2's bucket (burst 50, 1 a second) is left.
        let limits = HTTP2Limits(
            maximumHeaderListSize: 4096, maximumBodySize: 1024, resetBudget: 1_000_000, resetBurst: 50, resetRate: 1)
        let session = try #require(HTTP2Session(limits: limits))
        var input = Self.preface + Self.settings
        for index in 0..<200 { input += Self.get(UInt32(1 + 2 * index)) + Self.reset(UInt32(1 + 2 * index)) }
        _ = receive(session, input)
        var out: [UInt8] = []
        _ = session.send(into: &out, limit: 1 << 22)
        let goaway = Self.frames(out).first { $0.type == 7 }
        let code = goaway.map {
            Int($0.payload[4]) << 24 | Int($0.payload[5]) << 16 | Int($0.payload[6]) << 8 | Int($0.payload[7])
        }
        print("nghttp2's bucket: GOAWAY error code \(code.map(String.init) ?? "none")")
        #expect(goaway != nil, "nghttp2 sent GOAWAY past its bucket")
        #expect(!session.isActive, "the session is over once GOAWAY is sent")
    }

    @Test("our reset budget: past it GOAWAY ENHANCE_YOUR_CALM, and receive says why")
    func resetBudget() throws {
        let limits = HTTP2Limits(maximumHeaderListSize: 4096, maximumBodySize: 1024, resetBudget: 20)
        let session = try #require(HTTP2Session(limits: limits))
        var input = Self.preface + Self.settings
        for index in 0..<30 { input += Self.get(UInt32(1 + 2 * index)) + Self.reset(UInt32(1 + 2 * index)) }
        let failure = receive(session, input)
        #expect(failure?.reason == "too many streams reset by the client")
        #expect(failure?.isFlood == false)
        var out: [UInt8] = []
        _ = session.send(into: &out, limit: 1 << 22)
        let goaway = try #require(Self.frames(out).first { $0.type == 7 })
        #expect(goaway.payload[4..<8] == [0, 0, 0, 0xb])
    }

    @Test("a header list past the limit is refused (431) without ending the connection; a bad preface ends it")
    func limitsAndPreface() throws {
        let session = try #require(HTTP2Session(limits: HTTP2Limits(maximumHeaderListSize: 64, maximumBodySize: 1024)))
        // :authority of 100 bytes: past 64 with the fields before it.
        let long = frame100()
        #expect(receive(session, Self.preface + Self.settings + long) == nil)
        #expect(session.takeEvents().contains { if case .refused(1, .headersTooLarge) = $0 { true } else { false } })
        #expect(session.isActive)
        let other = try #require(HTTP2Session(limits: HTTP2Limits(maximumHeaderListSize: 64, maximumBodySize: 1024)))
        let failure = receive(other, Array("GET / HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
        #expect(failure != nil && failure?.isFlood == false)
        var out: [UInt8] = []
        _ = other.send(into: &out, limit: 1 << 16)
        #expect(Self.frames(out).contains { $0.type == 7 }, "GOAWAY for a bad preface")
    }

    @Test("bodies held at once are bounded per connection: the stream that does not fit is refused, the others go on")
    func bufferedBodies() throws {
        let limits = HTTP2Limits(maximumHeaderListSize: 4096, maximumBodySize: 1024, maximumBufferedBodyBytes: 1500)
        let session = try #require(HTTP2Session(limits: limits))
        // POST heads (:method POST is static entry 3), their bodies to follow.
        func post(_ stream: UInt32) -> [UInt8] {
            Self.frame(type: 1, flags: 0x4, stream: stream, [0x83, 0x87, 0x84, 0x01, 0x01, 0x61])
        }
        func data(_ stream: UInt32, _ count: Int, end: Bool) -> [UInt8] {
            Self.frame(type: 0, flags: end ? 0x1 : 0, stream: stream, [UInt8](repeating: 0x62, count: count))
        }
        let input =
            Self.preface + Self.settings + post(1) + post(3) + data(1, 1000, end: false) + data(3, 1000, end: false)
        #expect(receive(session, input) == nil)
        var out: [UInt8] = []
        _ = session.send(into: &out, limit: 1 << 20)
        let reset = Self.frames(out).first { $0.type == 3 }
        #expect(reset?.stream == 3 && reset?.payload == [0, 0, 0, 7], "REFUSED_STREAM for stream 3")
        _ = session.takeEvents()
        #expect(receive(session, data(1, 0, end: true)) == nil)
        let request = session.takeEvents().compactMap { event -> HTTP2Request? in
            if case .request(let request) = event { request } else { nil }
        }.first
        #expect(request?.streamID == 1 && request?.body.count == 1000 && request?.method == "POST")
    }

    private func frame100() -> [UInt8] {
        Self.frame(
            type: 1, flags: 0x5, stream: 1, [0x82, 0x87, 0x84, 0x01, 100] + [UInt8](repeating: 0x61, count: 100))
    }
}
