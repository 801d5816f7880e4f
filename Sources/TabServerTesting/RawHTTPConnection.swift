// SPDX-License-Identifier: Apache-2.0
import TabServerHTTP

#if canImport(Glibc)
    import Glibc
#endif

/// A TCP connection to a live server on loopback that sends exactly the bytes it is
/// given: for malformed framing, keep-alive and slow clients, which no ordinary client
/// would send. Every read has a timeout so a test cannot hang.
public final class RawHTTPConnection {
    private var descriptor: Int32
    private var pending: [UInt8] = []

    /// Connects to 127.0.0.1:`port`; nil if the connection is refused.
    public init?(port: Int, timeoutSeconds: Int = 5) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        descriptor = fd
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// Resets the connection: closed at once with an RST (SO_LINGER of zero), as a client
    /// that gives up does; nothing more can be sent or read.
    public func reset() {
        guard descriptor >= 0 else { return }
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        close(descriptor)
        descriptor = -1
    }

    /// Sends bytes as they are.
    @discardableResult
    public func send(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// Sends raw bytes (NUL, bare CR, bytes that are not UTF-8).
    @discardableResult
    public func send(bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = Glibc.send(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    /// How the server ended a connection read to its end (`readToEnd()`).
    public enum End: Equatable, Sendable {
        /// An orderly close (FIN) after whatever it sent.
        case closed
        /// A reset (RST): closed with bytes of ours unread, for one.
        case reset
        /// Still open when the read timed out.
        case timedOut
    }

    /// Reads, discarding what arrives, until the server ends the connection or the read
    /// times out; how it ended.
    public func readToEnd() -> End {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        pending = []
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { return .closed }
            if count < 0 { return errno == ECONNRESET ? .reset : .timedOut }
        }
    }

    /// Everything the server sends until it closes the connection; `closed` is false
    /// when the read timed out (or the connection was reset) first.
    public func readUntilClosed() -> (bytes: [UInt8], closed: Bool) {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 { break }
            if count < 0 {
                let result = pending
                pending = []
                return (result, false)
            }
            pending += chunk[..<count]
        }
        let result = pending
        pending = []
        return (result, true)
    }

    /// Reads one response (head, then a `Content-Length` or chunked body); nil on
    /// timeout or when the server closed without answering.
    public func readResponse(headRequest: Bool = false) -> TestResponse? {
        guard let headEnd = readUntil([13, 10, 13, 10]) else { return nil }
        let head = String(decoding: pending[..<headEnd], as: UTF8.self)
        pending.removeFirst(headEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { return nil }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        var headers = HTTPHeadersBuilder()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...].drop { $0 == " " }))
        }
        var body: [UInt8] = []
        if headRequest || status == 304 || status == 204 || (100..<200).contains(status) {
            return TestResponse(status: status, headers: headers.headers, body: [])
        }
        if let length = headers.headers["content-length"].flatMap({ Int($0) }) {
            guard fill(length) else { return nil }
            body = Array(pending[..<length])
            pending.removeFirst(length)
        } else if headers.headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                guard let lineEnd = readUntil([13, 10]) else { return nil }
                let size = Int(String(decoding: pending[..<lineEnd], as: UTF8.self), radix: 16) ?? 0
                pending.removeFirst(lineEnd + 2)
                guard fill(size + 2) else { return nil }
                body += pending[..<size]
                pending.removeFirst(size + 2)
                if size == 0 { break }
            }
        } else {
            while receive() {}
            body = pending
            pending = []
        }
        return TestResponse(status: status, headers: headers.headers, body: body)
    }

    /// Whatever arrives within `timeoutMilliseconds` (bytes already buffered first), as
    /// text; nil when nothing came or the server closed. For streams (Server-Sent Events).
    public func readAvailable(timeoutMilliseconds: Int) -> String? {
        if !pending.isEmpty {
            defer { pending = [] }
            return String(decoding: pending, as: UTF8.self)
        }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(timeoutMilliseconds)) > 0 else { return "" }
        guard receive() else { return nil }
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Bytes the kernel holds for this connection, not yet read (FIONREAD): a test waits
    /// for the server's sends to stall by watching this stop growing.
    public var unreadBytes: Int {
        var count: Int32 = 0
        return ioctl(descriptor, UInt(FIONREAD), &count) == 0 ? Int(count) + pending.count : pending.count
    }

    /// Whether the server closed the connection (reads end of stream within the timeout).
    /// Closes the sending side (the server reads end-of-file) and keeps reading.
    public func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    public func isClosedByPeer() -> Bool {
        if !pending.isEmpty { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    private func receive() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return false }
        pending += chunk[..<count]
        return true
    }

    private func fill(_ count: Int) -> Bool {
        while pending.count < count { if !receive() { return false } }
        return true
    }

    private func readUntil(_ marker: [UInt8]) -> Int? {
        var searchFrom = 0
        while true {
            if pending.count >= marker.count {
                for index in searchFrom...(pending.count - marker.count)
                where Array(pending[index..<index + marker.count]) == marker {
                    return index
                }
                searchFrom = pending.count - marker.count + 1
            }
            if !receive() { return nil }
        }
    }
}

/// Collects header fields (a tiny helper so the public `HTTPHeaders` API stays small).
struct HTTPHeadersBuilder {
    var headers = HTTPHeaders()
    mutating func add(_ name: String, _ value: String) { headers.add(name, value) }
}
